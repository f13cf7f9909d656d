import type { MethodLedgerEntry } from '../report/runsFile.js';
import { median } from './runBudget.js';

/**
 * How long the method runs still take, from the ledger of the run (src/report/runsFile.ts): each method not started
 * is expected to take as long as the typical one that ended, each one going on that typical time less what it has
 * run, all of it spread over the lanes. Until a method run has ended (on a slow target the first can take minutes),
 * the typical time is projected from the ones going on: the time their valid cases took so far, scaled to the cases
 * asked. That leaves out their negative cases, which come after: a first estimate, replaced by the measured one as
 * soon as a method run ends. Undefined while nothing is measured.
 */
export function methodRunsEtaMs(entries: readonly MethodLedgerEntry[], totalRuns: number, lanes: number, nowMs: number): number | undefined {
  const ended = entries.filter((entry) => entry.elapsedMs !== undefined);
  const typical = ended.length > 0 ? median(ended.map((entry) => entry.elapsedMs as number)) : median(entries.flatMap(projectedMs));
  if (typical === undefined) return undefined;
  const going = entries.filter((entry) => entry.elapsedMs === undefined);
  const goingLeft = going.reduce((sum, entry) => sum + Math.max(0, typical - (nowMs - entry.startedAt)), 0);
  const notStarted = Math.max(0, totalRuns - entries.length);
  return (goingLeft + notStarted * typical) / Math.max(1, lanes);
}

/** A method run's whole valid phase, projected from the cases it made so far; none before its first case ends. */
function projectedMs(entry: MethodLedgerEntry): number[] {
  const { validMade, validMadeAt } = entry;
  if (validMade === undefined || validMadeAt === undefined || validMade <= 0) return [];
  return [((validMadeAt - entry.startedAt) * Math.max(entry.asked, validMade)) / validMade];
}
