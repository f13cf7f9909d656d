import type { MethodLedgerEntry } from '../report/runsFile.js';
import { BUDGET_RESERVE, median } from './runBudget.js';

/**
 * How long the method runs still take, from the ledger of the run (src/report/runsFile.ts): each method not started
 * is expected to take as long as the typical one that ended, each one going on that typical time less what it has
 * run, all of it spread over the lanes. Until a method run has ended (on a slow target the first can take minutes),
 * the typical time is projected from the ones going on: the time their valid cases took so far, scaled to the cases
 * asked. That leaves out their negative cases, which come after: a first estimate, replaced by the measured one as
 * soon as a method run ends. Undefined while nothing is measured.
 */
export function methodRunsEtaMs(entries: readonly MethodLedgerEntry[], totalRuns: number, lanes: number, nowMs: number, generatedEndMs?: number): number | undefined {
  const ended = entries.filter((entry) => entry.elapsedMs !== undefined);
  const typical = ended.length > 0 ? median(ended.map((entry) => entry.elapsedMs as number)) : median(entries.flatMap(projectedMs));
  if (typical === undefined) return undefined;
  const going = entries.filter((entry) => entry.elapsedMs === undefined);
  const goingLeft = going.reduce((sum, entry) => sum + Math.max(0, typical - (nowMs - entry.startedAt)), 0);
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

/** Under `--budget`, when the method runs' generated cases stop (epoch ms): the budget's end less its reserve share. */
export function generatedCasesEndMs(budgetMs: number | undefined, startedAtMs: number | undefined): number | undefined {
  return budgetMs === undefined || startedAtMs === undefined ? undefined : startedAtMs + budgetMs * (1 - BUDGET_RESERVE);
}

/** A method run's whole valid phase, projected from the cases it made so far; none before its first case ends. */
function projectedMs(entry: MethodLedgerEntry): number[] {
  const { validMade, validMadeAt } = entry;
  if (validMade === undefined || validMadeAt === undefined || validMade <= 0) return [];
  return [((validMadeAt - entry.startedAt) * Math.max(entry.asked, validMade)) / validMade];
}
