import type { CellVerdict } from './cellTypes.js';

/**
 * `--retries N`: a failed cell is judged again, up to N more times, with the same seed and the same cases. The first
 * attempt that passes makes the cell `flaky`: it neither passes (the target answered the same request two ways) nor
 * fails (it did conform once); `--fail-on-flaky` decides whether the gate counts it as a failure. A cell that fails
 * every attempt keeps its first failure (its counterexample and replay file), with the number of attempts made.
 * Only a failure is retried: n/a and not-run say nothing a second attempt could change.
 */
export async function withRetries(first: CellVerdict, again: (() => Promise<CellVerdict>) | undefined, retries: number): Promise<CellVerdict> {
  if (first.status !== 'fail' || retries <= 0 || again === undefined) return first;
  const outcomes: string[] = [];
  for (let retry = 1; retry <= retries; retry++) {
    const verdict = await again();
    const attempts = retry + 1;
    if (verdict.status === 'pass') {
      const failed = retry === 1 ? 'attempt 1' : `attempts 1–${retry}`;
      return {
        ...verdict,
        status: 'flaky',
        attempts,
        detail: `flaky: failed on ${failed} (${first.detail}), passed on attempt ${attempts} with the same seed and cases`,
        context: [...(first.context ?? []), ...outcomes],
      };
    }
    outcomes.push(`attempt ${attempts}: ${verdict.status}${verdict.detail ? `: ${verdict.detail}` : ''}`);
  }
  return { ...first, attempts: retries + 1, detail: `${first.detail} (failed on all ${retries + 1} attempts)`, context: [...(first.context ?? []), ...outcomes] };
}
