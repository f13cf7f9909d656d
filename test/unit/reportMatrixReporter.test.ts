import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from './helpers/test.js';
import type { Matrix } from '../../src/report/matrixTypes.js';
import { CELLS_SPEC_MATRIX, untimedCells } from '../reporterFixtures/cellsSpecMatrix.js';
import { removeScratchDirs, runConfigEnv, runFixture, scratchDir } from '../reporterFixtures/runFixture.js';

// End-to-end: tiny spec files run in a child `playwright test` through the matrix reporter.

test.afterEach(({}, testInfo) => {
  if (testInfo.status === testInfo.expectedStatus) removeScratchDirs();
});

const readMatrix = (dir: string): Matrix => JSON.parse(readFileSync(`${dir}/matrix.json`, 'utf8')) as Matrix;

test('every cell state lands in matrix.json, matrix.md, matrix.html and the GitHub step summary', async () => {
  const dir = scratchDir();
  const reportDir = `${dir}/report`;
  const contract = `${dir}/hermes.openrpc.json`;
  const stepSummary = `${dir}/step-summary.md`;
  writeFileSync(contract, JSON.stringify({ openrpc: '1.2.6', info: { title: 'Hermes session lifecycle', version: '2.3.0' }, methods: [] }));
  writeFileSync(stepSummary, '# earlier step\n');
  const run = await runFixture(['cells.spec.ts', '--output', `${dir}/results`], {
    ...runConfigEnv({ reportDir, target: { kind: 'external', url: 'wss://staging.example/api/ws', label: 'wss://staging.example/api/ws?token=***' }, contracts: [contract], seed: 1234 }),
    GITHUB_STEP_SUMMARY: stepSummary,
    FIXTURE_PROGRESS: '1',
  });
  expect(run.code, run.stderr).toBe(1);

  const matrix = readMatrix(reportDir);
  expect(untimedCells(matrix.cells)).toEqual(CELLS_SPEC_MATRIX.cells);
  expect(matrix.summary).toEqual(CELLS_SPEC_MATRIX.summary);
  expect(matrix.coverage).toEqual(CELLS_SPEC_MATRIX.coverage);
  expect(matrix).toMatchObject({
    target: 'wss://staging.example/api/ws?token=***',
    contracts: [{ title: 'Hermes session lifecycle', version: '2.3.0', path: contract }],
    seed: 1234,
    verdict: 'fail',
  });
  expect(matrix.shard).toBeUndefined();

  const markdown = readFileSync(`${reportDir}/matrix.md`, 'utf8');
  expect(markdown).toContain('Hermes session lifecycle 2.3.0');
  expect(readFileSync(stepSummary, 'utf8')).toBe(`# earlier step\n${markdown}\n`);
  expect(readFileSync(`${reportDir}/matrix.html`, 'utf8').match(/<td [^>]*data-status=/g)).toHaveLength(7);

  // The progress reporter, not a TTY here: one line per failure, decile lines, final counts.
  expect(run.stdout).toContain('FAIL session.close × params.valid-accepted: session.close rejected a contract-valid payload');
  expect(run.stdout).toContain('STALE session.resume × params.valid-accepted: expected to fail (baseline) but passed');
  expect(run.stdout).toMatch(/^progress \d+%: \d\/8 checks/m);
  expect(run.stdout).toMatch(/^contract-gate: 8 checks in [\d.]+s: 2 passed, 2 failed, 1 stale baseline, 1 known, 1 n\/a, 1 flaky \(failed\)$/m);
  expect(run.stdout).not.toContain('\x1b[2K');
});

test('cells whose tests never ran show as not-run', async () => {
  const dir = scratchDir();
  const reportDir = `${dir}/report`;
  // No run configuration at all: the matrix says so in its header.
  const run = await runFixture(['notRun.spec.ts', '--max-failures=1', '--workers=1', '--retries=0', '--output', `${dir}/results`], { FIXTURE_REPORT_DIR: reportDir });
  expect(run.code).toBe(1);
  const matrix = readMatrix(reportDir);
  expect(matrix.cells.map(({ method, check, status }) => `${method} ${check} ${status}`)).toEqual([
    'gateway.ping params.valid-accepted not-run',
    'gateway.ping result.schema fail',
    'session.create event.envelope not-run',
  ]);
  expect(matrix.summary.notRun).toBe(2);
  expect(matrix).toMatchObject({ target: 'not set', contracts: [], seed: null });
});

test('a passing run exits 0 with a passing matrix', async () => {
  const dir = scratchDir();
  const reportDir = `${dir}/report`;
  const run = await runFixture(['passing.spec.ts', '--output', `${dir}/results`], runConfigEnv({ reportDir, shard: { index: 1, total: 1 } }));
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(readMatrix(reportDir)).toMatchObject({ verdict: 'pass', shard: '1/1', coverage: { methods: 1, reached: ['session.create'], unreached: [] } });
});

test('a matrix that cannot be built fails the run instead of passing silently', async () => {
  const dir = scratchDir();
  const reportDir = `${dir}/report`;
  // The report folder's place is taken by a file, so the matrix cannot be written.
  const env = runConfigEnv({ reportDir: `${dir}/config` });
  writeFileSync(reportDir, 'not a folder');
  const run = await runFixture(['passing.spec.ts', '--output', `${dir}/results`], { ...env, FIXTURE_REPORT_DIR: reportDir });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('contract-gate: the conformance matrix could not be written: Error: EEXIST');
});
