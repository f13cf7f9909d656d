import { allOptionalValue, minimalValue, type SchemaMemo, UnsatisfiableSchemaError } from '../../fuzz/index.js';
import type { ContractMethod } from '../contracts/contractModel.js';
import { jsonEqual, type JsonValue, type SchemaResolver } from '../../core/index.js';

/** The two fixed payloads every phase starts from, or why the params schema admits none. */
export type MethodBases = { minimal: JsonValue; full: JsonValue; unsatisfiable?: undefined } | { unsatisfiable: UnsatisfiableSchemaError };

/** The smallest payload and the one with every optional key, computed once per method run for all three phases. */
export function methodBases(method: ContractMethod, resolver: SchemaResolver, memo?: SchemaMemo): MethodBases {
  try {
    const options = { resolver, memo };
    return { minimal: minimalValue(method.paramsSchema, options), full: allOptionalValue(method.paramsSchema, options) };
  } catch (error) {
    if (error instanceof UnsatisfiableSchemaError) return { unsatisfiable: error };
    throw error;
  }
}

/** The distinct bases, smallest first (empty when none exists). */
export function baseValues(bases: MethodBases): JsonValue[] {
  if (bases.unsatisfiable !== undefined) return [];
  return jsonEqual(bases.minimal, bases.full) ? [bases.minimal] : [bases.minimal, bases.full];
}
