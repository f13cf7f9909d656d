import { unknownKeyProbes, type UnknownKeyProbe } from '../../fuzz/index.js';
import type { ContractMethod } from '../contracts/contractModel.js';
import type { JsonValue, SchemaResolver } from '../../core/index.js';
import type { CaseSender } from './caseSender.js';
import { baseValues, type MethodBases } from './methodBases.js';
import type { CaseRecord } from './methodRunTypes.js';

export const MAX_PROBES_PER_METHOD = 16;

export interface ProbePhaseOptions {
  method: ContractMethod;
  resolver: SchemaResolver;
  sender: CaseSender;
  bases: MethodBases;
  /** The profile's rule for an undeclared top-level param of a by-name method. */
  byNameTopLevel: 'closed' | 'unspecified';
}

/**
 * Probes that the schema settles. A by-name method's top level says nothing about unknown params: it is probed
 * as closed where the profile says so (`byNameParams: closed`), and left out otherwise.
 */
function decisiveProbes(method: ContractMethod, resolver: SchemaResolver, value: JsonValue, byNameTopLevel: 'closed' | 'unspecified'): UnknownKeyProbe[] {
  let probes: UnknownKeyProbe[];
  try {
    probes = unknownKeyProbes(method.paramsSchema, value, { resolver });
  } catch {
    return [];
  }
  const topLevelByName = (p: UnknownKeyProbe): boolean => method.paramStructure === 'by-name' && p.objectPath.length === 0;
  return probes
    .map((p): UnknownKeyProbe => (topLevelByName(p) && byNameTopLevel === 'closed' ? { ...p, policy: 'closed', reason: 'by-name params of this profile are a closed model' } : p))
    .filter((p) => p.policy !== 'unknown' && !(topLevelByName(p) && byNameTopLevel === 'unspecified'));
}

/**
 * The unknown-key phase: one undeclared key at every object path of two bound bases (the smallest payload
 * and the one with every optional key). Closed paths are sent once; open paths are sent with and without the
 * key on fresh live objects, so the two answers can be compared.
 */
export async function runProbePhase(options: ProbePhaseOptions): Promise<CaseRecord[]> {
  const { method, resolver, sender } = options;
  const records: CaseRecord[] = [];
  const seen = new Set<string>();
  // Bound payloads repeat (same live ids), so their probes are computed once per distinct payload.
  const probesOf = new Map<string, UnknownKeyProbe[]>();
  const decisive = (payload: JsonValue): UnknownKeyProbe[] => {
    const key = JSON.stringify(payload);
    let probes = probesOf.get(key);
    if (!probes) {
      probes = decisiveProbes(method, resolver, payload, options.byNameTopLevel);
      probesOf.set(key, probes);
    }
    return probes;
  };
  for (const generated of baseValues(options.bases)) {
    const binder = sender.binderFor();
    const bound = await binder.bindTraced(method.name, generated).catch(() => undefined);
    if (!bound) continue;
    for (const probe of decisive(bound.payload)) {
      if (seen.has(probe.dottedPath) || seen.size >= MAX_PROBES_PER_METHOD) continue;
      seen.add(probe.dottedPath);
      const policy = probe.policy as 'closed' | 'open';
      const inject = (payload: JsonValue): JsonValue => decisive(payload).find((p) => p.dottedPath === probe.dottedPath)?.payload ?? probe.payload;
      if (policy === 'closed') {
        const record = await sender.send('unknown-key', generated, { binder, transform: inject });
        if (record) records.push({ ...record, probe: { dottedPath: probe.dottedPath, policy, key: probe.key } });
        continue;
      }
      const withoutRecord = await sender.send('unknown-key', generated, { binder: sender.binderFor() });
      const withRecord = await sender.send('unknown-key', generated, { binder: sender.binderFor(), transform: inject });
      if (withRecord && withoutRecord) {
        records.push({ ...withRecord, probe: { dottedPath: probe.dottedPath, policy, key: probe.key, without: withoutRecord.exchange } });
      }
    }
  }
  return records;
}
