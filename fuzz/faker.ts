import * as fc from 'fast-check';
import { generate } from 'json-schema-faker';
import type { JsonSchema, JsonSchemaObject, SchemaResolver } from '../src/contracts/schemaTypes.js';
import type { JsonValue } from '../src/rpc/messages.js';
import { bundleSchema } from './bundleSchema.js';
import { arbitraryFromSchema, type SchemaArbitraryOptions } from './fromSchema.js';
import { schemaCheckFor } from './schemaCheck.js';

export interface FakeOptions {
  resolver: SchemaResolver;
  /** Same seed, same value. */
  seed: number;
  /**
   * The document's `components` object. When given, it is attached to the schema as json-schema-faker expects
   * ("#/components/..." then resolves inside the root); otherwise every reachable `$ref` is bundled through `resolver`.
   */
  components?: Record<string, unknown>;
  /** Recursion bound for `$ref`s (json-schema-faker's refDepthMax, and maxDepth of the fallback). Default 2. */
  maxDepth?: number;
  /** Probability of each optional property (default 0.5). */
  optionalsProbability?: number;
}

export interface FakeResult {
  value: JsonValue;
  source: 'faker' | 'fast-check';
  /** Why json-schema-faker's value was not used (it threw, or its value does not validate). */
  fallbackReason?: string;
}

/**
 * A realistic valid value from json-schema-faker, seeded. Its values do not shrink; when it fails or produces
 * a value the schema rejects, the fast-check arbitrary is sampled with the same seed instead.
 */
export async function fakeFromSchema(schema: JsonSchema, options: FakeOptions): Promise<FakeResult> {
  const check = schemaCheckFor(options.resolver);
  const maxDepth = options.maxDepth ?? 2;
  let reason: string;
  try {
    const root = fakerRoot(schema, options);
    const raw = await generate(root as never, {
      seed: options.seed,
      refDepthMax: maxDepth,
      maxDefaultItems: 3,
      optionalsProbability: options.optionalsProbability ?? 0.5,
    });
    const value = raw === undefined ? undefined : (JSON.parse(JSON.stringify(raw)) as JsonValue);
    if (value !== undefined && check.accepts(schema, value)) return { value, source: 'faker' };
    const error = value === undefined ? undefined : check.errors(schema, value)[0];
    reason = error ? `json-schema-faker produced an invalid value: ${error.instancePath || '(root)'} ${error.message ?? error.keyword}` : 'json-schema-faker produced no value';
  } catch (error) {
    reason = `json-schema-faker failed: ${(error as Error).message}`;
  }
  const arbitraryOptions: SchemaArbitraryOptions = { resolver: options.resolver, maxDepth };
  const [value] = fc.sample(arbitraryFromSchema(schema, arbitraryOptions), { seed: options.seed, numRuns: 1 });
  return { value: value ?? null, source: 'fast-check', fallbackReason: reason };
}

function fakerRoot(schema: JsonSchema, options: FakeOptions): JsonSchema {
  if (options.components === undefined || typeof schema === 'boolean') return bundleSchema(schema, options.resolver);
  const root: JsonSchemaObject = { ...schema, components: options.components };
  return root;
}
