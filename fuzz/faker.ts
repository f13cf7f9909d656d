import * as fc from 'fast-check';
import { generate, type JsonSchema as FakerSchema, type Random } from 'json-schema-faker';
import { type JsonSchema, type JsonValue, resolveLocalRef, type SchemaResolver } from '../core/index.js';
import { copySchemaTree, DanglingRefError } from './bundleSchema.js';
import { formatArbitrary, STRING_FORMATS } from './formats.js';
import { arbitraryFromSchema } from './fromSchema.js';
import type { SchemaArbitraryOptions } from './schemaOptions.js';
import { schemaCheckFor } from './schemaCheck.js';

export interface FakeOptions {
  resolver: SchemaResolver;
  /** Same seed, same value. */
  seed: number;
  /**
   * The document's `components` object. When given, "#/components/..." refs are read from it directly;
   * otherwise every `$ref` goes through `resolver`. Either way json-schema-faker gets them via its `refResolver`.
   */
  components?: Record<string, unknown>;
  /** Recursion bound of the fast-check fallback (default 2); json-schema-faker keeps its own depth limit. */
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
    const raw = await generate(fakerSchema(schema) as FakerSchema, {
      seed: options.seed,
      maxDefaultItems: 3,
      optionalsProbability: options.optionalsProbability ?? 0.5,
      refResolver: refResolverFor(options),
      formats: FAKER_FORMATS,
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

/** Refs are handed to json-schema-faker through its `refResolver`, from the components when given, else the resolver. */
function refResolverFor(options: FakeOptions): (ref: string) => FakerSchema {
  const components = options.components;
  return (ref) => {
    const target = components !== undefined && ref.startsWith('#/components/') ? resolveLocalRef(components, `#${ref.slice('#/components'.length)}`) : options.resolver.resolve(ref);
    if (target === undefined) throw new DanglingRefError(ref);
    return fakerSchema(target as JsonSchema) as FakerSchema;
  };
}

/** json-schema-faker reads 2020-12: draft-07 tuples (`items: [...]`, `additionalItems`) become `prefixItems`/`items`. */
function fakerSchema(schema: JsonSchema): JsonSchema {
  const copy = copySchemaTree(schema, (ref) => ref);
  const rewrite = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(rewrite);
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    if (Array.isArray(record['items'])) {
      record['prefixItems'] = record['items'];
      if (record['additionalItems'] === undefined) delete record['items'];
      else record['items'] = record['additionalItems'];
      delete record['additionalItems'];
    }
    Object.values(record).forEach(rewrite);
  };
  rewrite(copy);
  return copy as JsonSchema;
}

/** Formats json-schema-faker lacks or renders in a form ajv-formats refuses, drawn from our own generators. */
const FAKER_FORMATS = Object.fromEntries(
  STRING_FORMATS.filter((f) => !['date-time', 'date', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid', 'uri', 'json-pointer'].includes(f)).map((format) => [
    format,
    (random: Random) => fc.sample(formatArbitrary(format) ?? fc.constant(''), { seed: random.int(0, 2 ** 31 - 1), numRuns: 1 })[0] ?? '',
  ]),
);
