import { joinDetail } from './matrixModel.js';
import type { Matrix, MatrixRuns } from './matrixTypes.js';
import { matrixRunsOf, type MethodLedgerEntry } from './runsFile.js';
import { durationText } from './runsText.js';
import { readTargetDown } from './targetDownFile.js';
import { readTraffic } from './trafficFile.js';

/** The cells judged on the valid phase's generated payloads: a cut leaves them fewer cases than `--runs` asked. */
const VALID_RUN_CHECKS: ReadonlySet<string> = new Set(['params.valid-accepted', 'result.schema']);

/**
 * Puts the runs per method on the matrix, and on each cell a cut fed fewer cases than asked, says so in its detail
 * (a passing cell of a cut method must not read like one that judged every run).
 */
export function attachRuns(matrix: Matrix, runs: MatrixRuns): void {
  matrix.runs = runs;
  const cut = new Map(runs.methods.filter((method) => method.made < method.asked).map((method) => [method.method, method]));
  if (cut.size === 0) return;
  const cause = runs.budgetMs !== undefined ? `the budget (${durationText(runs.budgetMs)})` : 'its time limit';
  for (const cell of matrix.cells) {
    const method = cut.get(cell.method);
    if (!method || !VALID_RUN_CHECKS.has(cell.check)) continue;
    cell.detail = joinDetail(cell.detail, `valid runs cut by ${cause}: ${method.made} of ${method.asked} made`);
  }
}

/**
 * The runs per method of a sharded run, from each shard's own: a method whose runs were made in several shards (its
 * cells split between them) keeps the most cut of them. Undefined when no shard reported runs.
 */
export function mergeRuns(shards: ReadonlyArray<MatrixRuns | undefined>): MatrixRuns | undefined {
  const reported = shards.filter((runs): runs is MatrixRuns => runs !== undefined);
  if (reported.length === 0) return undefined;
  const byMethod = new Map<string, MatrixRuns['methods'][number]>();
  for (const method of reported.flatMap((runs) => runs.methods)) {
    const kept = byMethod.get(method.method);
    if (!kept || method.made / method.asked < kept.made / kept.asked) byMethod.set(method.method, method);
  }
  const methods = [...byMethod.values()].sort((a, b) => a.method.localeCompare(b.method));
  const budgetMs = reported.find((runs) => runs.budgetMs !== undefined)?.budgetMs;
  return { ...(budgetMs !== undefined ? { budgetMs } : {}), cut: methods.filter((method) => method.made < method.asked).length, methods };
}

/**
 * Adds what the run's workers wrote beside the cells to a matrix: the traffic the lanes sent, the runs per method,
 * and the target-down record, which fails the verdict whatever the cells say.
 */
export function attachRunFacts(matrix: Matrix, reportDir: string, ledger: readonly MethodLedgerEntry[], budgetMs: number | undefined): void {
  const traffic = readTraffic(reportDir);
  if (traffic) matrix.traffic = traffic;
  const runs = matrixRunsOf(ledger, budgetMs);
  if (runs) attachRuns(matrix, runs);
  const down = readTargetDown(reportDir);
  if (down) {
    matrix.targetDown = down;
    matrix.verdict = 'fail';
  }
}
