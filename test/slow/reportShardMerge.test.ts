import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../unit/helpers/test.js';
import type { Matrix } from '../../src/report/matrixTypes.js';
import { mergeShards } from '../../reporters/shardMerge.js';
import { CELLS_SPEC_MATRIX, untimedCells } from '../reporterFixtures/cellsSpecMatrix.js';
import { FIXTURE_DIR, removeScratchDirs, runConfigEnv, runFixture, scratchDir } from '../reporterFixtures/runFixture.js';

test.afterEach(({}, testInfo) => {
  if (testInfo.status === testInfo.expectedStatus) removeScratchDirs();
});

const readMatrix = (dir: string): Matrix => JSON.parse(readFileSync(join(dir, 'matrix.json'), 'utf8')) as Matrix;
const runEnv = (reportDir: string, shard?: { index: number; total: number }): Record<string, string> =>
  runConfigEnv({ reportDir, seed: 99, target: { kind: 'embedded', label: 'reference gateway' }, shard });

// The unsharded run is reportMatrixReporter's: it holds one to CELLS_SPEC_MATRIX, and so does this test the merge.
test('two shards merged give the matrix of one unsharded run', async () => {
  test.setTimeout(120_000);
  const dir = scratchDir();
  const shard = (index: number) =>
    runFixture(['cells.spec.ts', `--shard=${index}/2`, '--output', join(dir, `results-${index}`)], {
      ...runEnv(join(dir, `blob-${index}`), { index, total: 2 }),
      FIXTURE_BLOB_DIR: join(dir, `blob-${index}`, 'blob'),
      FIXTURE_ALLURE_DIR: join(dir, `blob-${index}`, 'allure-results'),
    });
  const [first, second] = await Promise.all([shard(1), shard(2)]);
  expect([first.code, second.code]).toEqual([1, 1]);
  const parts = [readMatrix(join(dir, 'blob-1')), readMatrix(join(dir, 'blob-2'))];
  expect(parts.map((part) => part.shard)).toEqual(['1/2', '2/2']);
  expect(parts.every((part) => part.cells.length > 0)).toBe(true);

  // The merged folder held an earlier merge: none of its files may pass for this one's.
  mkdirSync(join(dir, 'merged', 'allure-results'), { recursive: true });
  writeFileSync(join(dir, 'merged', 'allure-results', 'earlier-result.json'), '{"name":"an earlier merge"}');
  mkdirSync(join(dir, 'merged', 'transcripts'));
  writeFileSync(join(dir, 'merged', 'transcripts', 'session.close.jsonl'), '{"dir":"earlier"}\n');
  writeFileSync(join(dir, 'merged', 'transcripts', 'session.list.jsonl'), '{"dir":"earlier"}\n');
  const { exitCode } = await mergeShards([join(dir, 'blob-1'), join(dir, 'blob-2')], join(dir, 'merged'), { testDir: FIXTURE_DIR, githubSummary: false });
  expect(exitCode).toBe(1);
  const merged = readMatrix(join(dir, 'merged'));
  expect(untimedCells(merged.cells)).toEqual(CELLS_SPEC_MATRIX.cells);
  expect(merged.summary).toEqual(CELLS_SPEC_MATRIX.summary);
  expect(merged.coverage).toEqual(CELLS_SPEC_MATRIX.coverage);
  expect(merged).toMatchObject({ verdict: 'fail', seed: 99, target: 'reference gateway' });
  expect(merged.shard).toBeUndefined();
  expect(existsSync(join(dir, 'merged', 'matrix.html'))).toBe(true);
  expect(readFileSync(join(dir, 'merged', 'junit.xml'), 'utf8')).toMatch(/<testsuites [^>]*tests="9"/);
  // The merged folder is complete on its own: linked transcripts and the pooled Allure results come along.
  expect(readFileSync(join(dir, 'merged', 'transcripts', 'session.close.jsonl'), 'utf8')).toBe('{"dir":"out","frame":{}}\n');
  expect(readdirSync(join(dir, 'merged', 'transcripts')), 'an earlier merge\'s transcripts').toEqual(['session.close.jsonl']);
  const allure = (folder: string) => readdirSync(folder).filter((name) => name.endsWith('-result.json')).length;
  const pooled = allure(join(dir, 'blob-1', 'allure-results')) + allure(join(dir, 'blob-2', 'allure-results'));
  expect(allure(join(dir, 'merged', 'allure-results'))).toBe(pooled);

  // Merged into the first shard's own folder: its files are the merge's sources, so they stay, whole, beside the
  // second shard's.
  const own = (name: string) => readFileSync(join(dir, 'blob-1', name), 'utf8');
  const linkedOfFirst = parts[0]?.cells.flatMap((cell) => (cell.transcript ? [cell.transcript] : [])) ?? [];
  const before = new Map(linkedOfFirst.map((path) => [path, own(path)]));
  expect(before.size, 'the first shard links transcripts').toBeGreaterThan(0);
  const intoShard = await mergeShards([join(dir, 'blob-1'), join(dir, 'blob-2')], join(dir, 'blob-1'), { testDir: FIXTURE_DIR, githubSummary: false });
  expect(intoShard.exitCode).toBe(1);
  expect(untimedCells(readMatrix(join(dir, 'blob-1')).cells)).toEqual(CELLS_SPEC_MATRIX.cells);
  expect(allure(join(dir, 'blob-1', 'allure-results'))).toBe(pooled);
  for (const name of readdirSync(join(dir, 'blob-1', 'allure-results'))) expect(readFileSync(join(dir, 'blob-1', 'allure-results', name), 'utf8'), name).not.toBe('');
  for (const [path, content] of before) expect(own(path), path).toBe(content);
});

test('merge refuses to start without blobs or with shards of different runs', async () => {
  const dir = scratchDir();
  await expect(mergeShards([], join(dir, 'out'))).rejects.toThrow(/\[USAGE\] merge needs at least one blob folder/);
  await expect(mergeShards([join(dir, 'missing')], join(dir, 'out'))).rejects.toThrow(/does not exist/);
  mkdirSync(join(dir, 'empty'));
  await expect(mergeShards([join(dir, 'empty')], join(dir, 'out'))).rejects.toThrow(/no blob report \(\*\.zip\)/);
  for (const [index, seed] of [[1, 1], [2, 2]] as const) {
    mkdirSync(join(dir, `blob-${index}`, 'blob'), { recursive: true });
    writeFileSync(join(dir, `blob-${index}`, 'blob', `report-${index}.zip`), 'not read');
    const matrix = { target: 't', contracts: [], seed, generatedAt: '', verdict: 'pass', summary: {}, cells: [], coverage: {} };
    writeFileSync(join(dir, `blob-${index}`, 'matrix.json'), JSON.stringify(matrix));
  }
  await expect(mergeShards([join(dir, 'blob-1'), join(dir, 'blob-2')], join(dir, 'out'))).rejects.toThrow(/seeds differ \(1 \/ 2\): run every shard with the same seed/);
  // The same run but for the coverage floor: the merge could apply only one of them.
  for (const [index, minCoverage] of [[1, 80], [2, 0]] as const) {
    const matrix = { target: 't', contracts: [], seed: 1, generatedAt: '', verdict: 'pass', summary: {}, cells: [], coverage: {}, ...(minCoverage ? { minCoverage } : {}) };
    writeFileSync(join(dir, `blob-${index}`, 'matrix.json'), JSON.stringify(matrix));
  }
  await expect(mergeShards([join(dir, 'blob-1'), join(dir, 'blob-2')], join(dir, 'out'))).rejects.toThrow(/--min-coverage differs \(80% \/ 0%\): run every shard with the same floor/);
});
