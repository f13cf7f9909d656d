import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The `(connection)` checks that send junk frames: live cells a fragile target may not survive. */
export const JUNK_CHECKS = ['envelope.parse-error', 'envelope.invalid-request', 'envelope.batch', 'envelope.oversized-frame'];

export interface CellSpan {
  readonly name: string;
  readonly start: number;
  readonly stop: number;
}

/** When each junk-frame cell of a run ran, from its Allure result. */
export function junkCellSpans(reportDir: string): CellSpan[] {
  const dir = join(reportDir, 'allure-results');
  return readdirSync(dir)
    .filter((name) => name.endsWith('-result.json'))
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as CellSpan)
    .filter((result) => result.name.startsWith('(connection)') && JUNK_CHECKS.some((check) => result.name.endsWith(check)))
    .map(({ name, start, stop }) => ({ name, start, stop }));
}

/** Whether two of the spans were under way at once. */
export function anyOverlap(spans: readonly CellSpan[]): boolean {
  return spans.some((a, i) => spans.some((b, j) => i !== j && a.start < b.stop && b.start < a.stop));
}
