import type { MatrixRuns } from './matrixTypes.js';
import { formatElapsed } from './progressLines.js';

const LISTED = 10;

/** `90s`, `5m`, `2m 30s`, `850ms`: a budget as people write it. */
export function durationText(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  return seconds % 60 ? `${Math.floor(seconds / 60)}m ${seconds % 60}s` : `${seconds / 60}m`;
}

/** One line on what the budget (or a method's time limit) cut: the methods that made fewer valid runs than asked. */
export function runsSentence(runs: MatrixRuns): string {
  const cause = runs.budgetMs !== undefined ? `budget ${durationText(runs.budgetMs)}` : 'time limit';
  if (runs.cut === 0) return `${cause}: every method made the valid runs asked (${runs.methods.length} methods)`;
  const cut = runs.methods.filter((method) => method.made < method.asked).sort((a, b) => a.made / a.asked - b.made / b.asked);
  const listed = cut.slice(0, LISTED).map((method) => `${method.method} ${method.made}/${method.asked}${method.perRunMs !== undefined ? ` (${durationText(method.perRunMs)} a case)` : ''}`);
  const more = cut.length > LISTED ? `, … ${cut.length - LISTED} more` : '';
  return `${cause}: valid runs cut on ${runs.cut} of ${runs.methods.length} methods: ${listed.join(', ')}${more}`;
}

/**
 * Said when a budgeted run ended past its budget (undefined when it did not): what a budget never cuts. Fixed cases
 * and the cells after the method runs can outlast a budget smaller than they are.
 */
export function budgetOverrunSentence(budgetMs: number, elapsedMs: number): string | undefined {
  if (elapsedMs <= budgetMs) return undefined;
  return `the run took ${formatElapsed(elapsedMs)}, ${formatElapsed(elapsedMs - budgetMs)} past its budget of ${durationText(budgetMs)}: a budget cuts generated cases only, never the fixed ones (examples, unknown-key probes, negative mutations) nor the cells after the method runs`;
}

/** The per-method table (made vs asked), as Markdown rows. */
export function runsTableLines(runs: MatrixRuns): string[] {
  return [
    '| method | valid runs made | asked | one case |',
    '|---|--:|--:|--:|',
    ...runs.methods.map((method) => `| \`${method.method}\` | ${method.made} | ${method.asked} | ${method.perRunMs !== undefined ? durationText(method.perRunMs) : ''} |`),
  ];
}
