import * as fc from 'fast-check';
import { cloneJson, type JsonSchema, type JsonValue } from '../core/index.js';
import { arbitraryInterpreter } from './arbitraryInterpreter.js';
import { resolveOptions, type ResolvedOptions, type SchemaArbitraryOptions, UnsatisfiableSchemaError } from './schemaOptions.js';
import { walkSchema, type Walked } from './schemaWalker.js';
import { witnessInterpreter } from './witnessInterpreter.js';
import type { WitnessMode } from './witnessLeaves.js';

/**
 * A shrinking fast-check arbitrary of values valid against `schema` (draft-07 as ajv reads it, plus
 * `prefixItems`). `$ref`s are followed through `options.resolver`; recursion is bounded by `maxDepth`.
 * Throws {@link UnsatisfiableSchemaError} when no finite value exists.
 */
export function arbitraryFromSchema(schema: JsonSchema, options: SchemaArbitraryOptions): fc.Arbitrary<JsonValue> {
  const resolved = resolveOptions(options);
  const built = walkSchema(schema, arbitraryInterpreter(resolved), resolved.resolver, resolved.memo);
  if ('value' in built) return built.value;
  if (built.fail === 'exhausted') return fc.constant(minimalValue(schema, options)).map(cloneJson);
  throw new UnsatisfiableSchemaError(built.reasons);
}

/**
 * The smallest deterministic valid value: required keys only, a valid `default` where there is one, otherwise
 * the shortest value (null before false before 0 before "" before [] before {}). Recursion is never entered twice,
 * so this also proves that a finite value exists; throws {@link UnsatisfiableSchemaError} when none does.
 */
export function minimalValue(schema: JsonSchema, options: SchemaArbitraryOptions): JsonValue {
  const outcome = witness(schema, resolveOptions(options), 'minimal');
  if ('value' in outcome) return outcome.value;
  throw new UnsatisfiableSchemaError(outcome.reasons);
}

/**
 * A deterministic valid value with every optional key populated at least once (non-null branches preferred,
 * non-null defaults kept, arrays with one item, maps with one entry), down to `maxDepth` recursion.
 * This is "every key a client may send".
 */
export function allOptionalValue(schema: JsonSchema, options: SchemaArbitraryOptions): JsonValue {
  const outcome = witness(schema, resolveOptions(options), 'rich');
  if ('value' in outcome) return outcome.value;
  return minimalValue(schema, options);
}

function witness(schema: JsonSchema, options: ResolvedOptions, mode: WitnessMode): Walked<JsonValue> {
  const interpreter = witnessInterpreter(options, mode, (inner) => arbitraryFromSchema(inner, options));
  return walkSchema(schema, interpreter, options.resolver, options.memo);
}
