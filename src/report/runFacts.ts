import { parseShard } from '../config/shardText.js';
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

/** A shard's partial matrix as a merge found it: its "i/n" and where it was. */
export interface FoundShard {
  readonly shard: string;
  readonly path: string;
}

/**
 * Why a set of shards' matrices cannot make the whole run's, or undefined when they can: every shard of one split
 * (the same n), each of 1..n exactly once. A merge of some of the shards would judge only their cells and pass the
 * others unseen; a shard given twice would count its cells twice.
 */
export function shardSetProblem(found: readonly FoundShard[]): string | undefined {
  const first = found[0];
  if (!first) return undefined;
  let total: number | undefined;
  const byIndex = new Map<number, string>();
  for (const { shard, path } of found) {
    const parsed = parseShard(shard);
    if (!parsed) return `${path} names shard "${shard}", not i/n`;
    total ??= parsed.total;
    if (parsed.total !== total) return `the shards are of different splits: ${first.shard} (${first.path}) and ${shard} (${path}); merge the shards of one run`;
    const twice = byIndex.get(parsed.index);
    if (twice) return `shard ${shard} is given twice (${twice} and ${path}); give each shard's report folder once`;
    byIndex.set(parsed.index, path);
  }
  const missing = Array.from({ length: total ?? 0 }, (_, i) => i + 1).filter((index) => !byIndex.has(index));
  if (missing.length === 0) return undefined;
  const names = missing.map((index) => `${index}/${total}`).join(', ');
  return `shard${missing.length > 1 ? 's' : ''} ${names} missing: no folder given holds ${missing.length > 1 ? 'their' : 'its'} matrix.json. A merge of some of the shards would pass the others' cells unseen; give every shard's report folder (a shard that did not finish still writes one)`;
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
