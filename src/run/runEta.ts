import type { MethodLedgerEntry } from '../report/runsFile.js';
import { median } from './runBudget.js';

/**
 * How long the method runs still take, from the ledger of the run (src/report/runsFile.ts): each method not started
 * is expected to take as long as the typical one that ended, each one going on that typical time less what it has
 * run, all of it spread over the lanes. Undefined until a method run has ended (nothing measured yet).
 */
export function methodRunsEtaMs(entries: readonly MethodLedgerEntry[], totalRuns: number, lanes: number, nowMs: number): number | undefined {
  const ended = entries.filter((entry) => entry.elapsedMs !== undefined);
  const typical = median(ended.map((entry) => entry.elapsedMs as number));
  if (typical === undefined) return undefined;
  const going = entries.filter((entry) => entry.elapsedMs === undefined);
  const goingLeft = going.reduce((sum, entry) => sum + Math.max(0, typical - (nowMs - entry.startedAt)), 0);
  const notStarted = Math.max(0, totalRuns - entries.length);
  return (goingLeft + notStarted * typical) / Math.max(1, lanes);
}
