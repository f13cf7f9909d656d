import { mutationsOf, type Mutation } from '../../fuzz/index.js';
import type { ContractMethod } from '../contracts/contractModel.js';
import type { SchemaResolver } from '../../core/index.js';
import type { CaseSender } from './caseSender.js';
import { baseValues, type MethodBases } from './methodBases.js';
import type { CaseRecord } from './methodRunTypes.js';

export const MAX_MUTATIONS_PER_METHOD = 48;

export interface InvalidPhaseOptions {
  method: ContractMethod;
  resolver: SchemaResolver;
  sender: CaseSender;
  bases: MethodBases;
}

/**
 * The negative phase: wrong types, missing required keys, nulls for non-null fields, out-of-range and boundary
 * values, each applied once to a bound valid payload. Many gateways leave these to handlers, so the only expectation
 * is that none of them succeeds.
 */
export async function runInvalidPhase(options: InvalidPhaseOptions): Promise<CaseRecord[]> {
  const { method, resolver, sender } = options;
  const records: CaseRecord[] = [];
  const seen = new Set<string>();
  // Mutations of a kind and path already sent (from the first base) or past the cap are never built.
  const skip = (kind: string, dottedPath: string): boolean => seen.size >= MAX_MUTATIONS_PER_METHOD || seen.has(`${kind}:${dottedPath}`);
  for (const generated of baseValues(options.bases)) {
    const binder = sender.binderFor();
    const bound = await binder.bindTraced(method.name, generated).catch(() => undefined);
    if (!bound) continue;
    let mutations: Mutation[];
    try {
      mutations = mutationsOf(method.paramsSchema, bound.payload, { resolver, skip });
    } catch {
      continue;
    }
    for (const mutation of mutations) {
      // With paramStructure "either", an object keyed by param names is as valid as the array, so the root type is not a rule.
      if (method.declaredStructure === 'either' && method.paramStructure === 'by-position' && mutation.path.length === 0 && mutation.kind === 'wrong-type') continue;
      // `params: null` is an envelope question (JSON-RPC: params is structured or absent), judged by envelope.invalid-request.
      if (mutation.path.length === 0 && mutation.kind === 'null-for-non-null') continue;
      const key = `${mutation.kind}:${mutation.dottedPath}`;
      if (seen.has(key) || seen.size >= MAX_MUTATIONS_PER_METHOD) continue;
      seen.add(key);
      const record = await sender.send('invalid', generated, { binder, transform: () => mutation.payload });
      if (record) records.push({ ...record, mutation: { kind: mutation.kind, dottedPath: mutation.dottedPath, description: mutation.description } });
    }
  }
  return records;
}
