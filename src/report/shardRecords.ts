import { buildMatrix, type TestRecord } from './matrixModel.js';
import type { Matrix, MatrixRun, MatrixTraffic, TargetDown } from './matrixTypes.js';

/**
 * What a shard run by the run engine leaves for `contract-gate merge` (the Playwright runner leaves a blob
 * report instead): the records of its cells, as the matrix model reads them, with the shard's run facts.
 */
export const SHARD_RECORDS_FILE = 'shard-records.json';

export interface ShardRecords {
  readonly version: 1;
  readonly run: Pick<Matrix, 'target' | 'contracts' | 'seed' | 'shard' | 'targetDown' | 'traffic'>;
  readonly records: readonly TestRecord[];
}

export function parseShardRecords(text: string, origin: string): ShardRecords {
  const parsed = JSON.parse(text) as Partial<ShardRecords>;
  if (parsed.version !== 1 || !Array.isArray(parsed.records) || typeof parsed.run !== 'object') throw new Error(`${origin} is not a shard record file of this version of contract-gate`);
  return parsed as ShardRecords;
}

/** Two shards' traffic as one run's: requests and timeouts added, the higher peak. */
export const addTraffic = (a: MatrixTraffic | undefined, b: MatrixTraffic | undefined): MatrixTraffic | undefined =>
  a && b ? { requestsSent: a.requestsSent + b.requestsSent, peakInFlight: Math.max(a.peakInFlight, b.peakInFlight), timeouts: a.timeouts + b.timeouts } : (a ?? b);

/** One matrix of every shard's cells, as if one unsharded run had recorded them (`run` without its shard). */
export function mergeShardRecords(shards: readonly ShardRecords[], run: MatrixRun): Matrix {
  const { shard: _shard, ...whole } = run;
  const matrix = buildMatrix(
    shards.flatMap((shard) => shard.records),
    whole,
    new Date().toISOString(),
  );
  const traffic = shards.map((shard) => shard.run.traffic).reduce(addTraffic, undefined);
  if (traffic) matrix.traffic = traffic;
  const down: TargetDown | undefined = shards.find((shard) => shard.run.targetDown)?.run.targetDown;
  if (down) {
    matrix.targetDown = down;
    matrix.verdict = 'fail';
  }
  return matrix;
}
