import type { ErrorObject } from 'ajv';
import type { UnknownKeyProbe } from '../../../fuzz/index.js';
import { formatPointer, type JsonValue } from '../../../core/index.js';

/**
 * Law tests run with a fixed seed so CI is reproducible; set CG_FUZZ_SEED to explore other seeds locally.
 * fast-check prints the seed and the shrunk counterexample of any failure.
 */
export const LAW_SEED = Number(process.env['CG_FUZZ_SEED'] ?? 20_240_517);

export function lawParams(numRuns: number): { seed: number; numRuns: number } {
  return { seed: LAW_SEED, numRuns };
}

export function describeErrors(errors: readonly ErrorObject[]): string {
  return errors.map((e) => `${e.instancePath || '(root)'} ${e.keyword}: ${e.message ?? ''}`).join('; ');
}

/** The unknown-key law the params suites rely on, checked with a validator independent of fuzz/: closed probes are rejected at the injected key, open ones accepted. */
export function probeViolations(probes: UnknownKeyProbe[], errorsOf: (payload: JsonValue) => ErrorObject[]): string[] {
  const out: string[] = [];
  for (const probe of probes) {
    const errors = errorsOf(probe.payload);
    if (probe.policy === 'open' && errors.length > 0) out.push(`open ${probe.dottedPath} rejected: ${describeErrors(errors)}`);
    if (probe.policy === 'closed') {
      const at = formatPointer(probe.objectPath);
      const named = errors.some((e) => (e.keyword === 'additionalProperties' && e.instancePath === at && e.params['additionalProperty'] === probe.key) || e.instancePath === formatPointer([...probe.objectPath, probe.key]));
      if (!named) out.push(`closed ${probe.dottedPath} not rejected at the key: ${describeErrors(errors) || 'accepted'}`);
    }
  }
  return out;
}
