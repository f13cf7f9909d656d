import type { MethodLedgerEntry } from '../report/runsFile.js';
import { BUDGET_RESERVE, median } from './runBudget.js';

/** Valid cases a running method run must have made, once one has ended, before its own pace stands for its length. */
export const PACE_FROM_CASES = 5;

/**
 * How long the method runs still take, from the ledger of the run (src/report/runsFile.ts), spread over the lanes. A
 * method run's length is its measured time once it has ended; while it runs, what its pace says: the time its valid
 * cases took so far, scaled to the cases asked (the first cases pay one-time costs, so only from PACE_FROM_CASES cases
 * on, once a run has ended to fall back on), and never less than what it has run. The typical length is the mean of
 * those: the method runs left add up to their count times the mean, and the runs that end first are the short ones,
 * so the median of the ended ones read low on a target where a few methods are slow (the MetaMask document on a slow
 * dev chain, at 3m 20s: the median put the end 35 s early, the mean 12 s). Each method not started is
 * expected to take the typical length; each running one its own length, or the typical one, less what it has run.
 * Negative cases, which come after a run's valid ones, are in a length only once a run has ended. Undefined while
 * nothing is measured.
 */
export function methodRunsEtaMs(entries: readonly MethodLedgerEntry[], totalRuns: number, lanes: number, nowMs: number, generatedEndMs?: number): number | undefined {
  const ended = entries.filter((entry) => entry.elapsedMs !== undefined);
  const going = entries.filter((entry) => entry.elapsedMs === undefined);
  const minCases = ended.length > 0 ? PACE_FROM_CASES : 1;
  const paced = new Map<MethodLedgerEntry, number>();
  for (const entry of going) {
    const length = projectedMs(entry, minCases);
    if (length !== undefined) paced.set(entry, Math.max(length, nowMs - entry.startedAt));
  }
  const typical = mean([...ended.map((entry) => entry.elapsedMs as number), ...paced.values()]);
  if (typical === undefined) return undefined;
  const goingLeft = going.reduce((sum, entry) => sum + Math.max(0, (paced.get(entry) ?? typical) - (nowMs - entry.startedAt)), 0);
  const notStarted = Math.max(0, totalRuns - entries.length);
  const lanesOf = Math.max(1, lanes);
  const eta = (goingLeft + notStarted * typical) / lanesOf;
  if (generatedEndMs === undefined) return eta;
  // Under a budget the runs that ended made the generated cases they were granted, and the ones left get what the
  // budget has left: no generated case starts after its end. Past it, only the fixed cases of the methods not started
  // remain (never cut), at the typical fixed cost measured.
  const fixedLeft = (notStarted * (median(entries.flatMap((entry) => (entry.fixedMs === undefined ? [] : [entry.fixedMs]))) ?? 0)) / lanesOf;
  return Math.min(eta, Math.max(generatedEndMs - nowMs, fixedLeft));
}

const mean = (values: readonly number[]): number | undefined => (values.length === 0 ? undefined : values.reduce((sum, value) => sum + value, 0) / values.length);

/** Under `--budget`, when the method runs' generated cases stop (epoch ms): the budget's end less its reserve share. */
export function generatedCasesEndMs(budgetMs: number | undefined, startedAtMs: number | undefined): number | undefined {
  return budgetMs === undefined || startedAtMs === undefined ? undefined : startedAtMs + budgetMs * (1 - BUDGET_RESERVE);
}

/** A method run's whole valid phase, projected from the cases it made so far; none before it made `minCases`. */
function projectedMs(entry: MethodLedgerEntry, minCases: number): number | undefined {
  const { validMade, validMadeAt } = entry;
  if (validMade === undefined || validMadeAt === undefined || validMade <= 0 || validMade < minCases) return undefined;
  return ((validMadeAt - entry.startedAt) * Math.max(entry.asked, validMade)) / validMade;
}
