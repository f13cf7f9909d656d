import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { mergeShards } from '../../reporters/shardMerge.js';
import { parseMatrixJson } from '../../src/report/renderJson.js';
import { factLines, gateLines } from '../../src/report/verdictLines.js';
import { clearEarlierReport, makeOutputFolder } from '../lib/reportFolder.js';
import { REPO_ROOT } from '../lib/repoPaths.js';

/** The failing cells a merge names on its own lines (the rest are counted in the verdict and listed in matrix.md). */
const FAILURES_LISTED = 20;

/** `contract-gate merge <blob-dirs...>`: merges the shards, then says what the merged matrix says, as `run` does. */
export async function mergeAction(dirs: string[], options: Record<string, unknown>): Promise<number> {
  const reportDir = resolve(options['reportDir'] as string);
  // First of all, as `run` does: a merge that is refused (a shard missing, say) must not leave an earlier merge's
  // verdict in its folder, to be uploaded as its own. The shards themselves are kept, wherever they are.
  makeOutputFolder(reportDir, '--report-dir');
  clearEarlierReport(reportDir, { allureResults: 'remove', keep: dirs });
  const { exitCode } = await mergeShards(dirs, reportDir, { testDir: join(REPO_ROOT, 'suites') });
  const matrixPath = join(reportDir, 'matrix.json');
  if (exitCode > 1 || !existsSync(matrixPath)) return exitCode;
  const matrix = parseMatrixJson(readFileSync(matrixPath, 'utf8'), matrixPath);
  const say = (line: string): void => void process.stdout.write(`contract-gate merge: ${line}\n`);
  factLines(matrix, reportDir).forEach(say);
  const failing = matrix.cells.filter((cell) => cell.status === 'fail' || cell.status === 'stale');
  for (const cell of failing.slice(0, FAILURES_LISTED)) say(`${cell.status.toUpperCase()} ${cell.method} × ${cell.check}${cell.detail ? `: ${cell.detail.slice(0, 200)}` : ''}`);
  if (failing.length > FAILURES_LISTED) say(`… and ${failing.length - FAILURES_LISTED} more in ${join(reportDir, 'matrix.md')}`);
  gateLines(matrix, reportDir).forEach(say);
  return exitCode;
}
