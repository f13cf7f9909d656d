import type { ErrorObject } from 'ajv';

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
