import { expect, test } from './helpers/test.js';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { CellVerdict } from '../../src/run/cellTypes.js';
import { withRetries } from '../../src/run/cellRetries.js';
import { parseMatrixJson } from '../../src/report/renderJson.js';
import { runCli } from './helpers/cliRunner.js';
import { scratchDir } from './helpers/scratchDir.js';

// --retries against a flaky target: the gateway fault result.first-answer-wrong breaks the first session.usage
// result of each gateway and answers every later one right. The cell's first attempt judges the setup stage's run
// (one gateway), its retries run the method again on the cell's worker's gateway (the first of which is again that
// gateway's first answer): two retries are enough to see a right answer, whatever the worker layout.
const CELL = 'session.usage';
const RUN = ['run', '--seed', '1', '--runs', '3', '--workers', '1', '--fault', 'result.first-answer-wrong', '--grep', `@method:${CELL}(?=\\s|$)`];
const CONTRACT = ['--contract', 'profiles/hermes/contracts/session-lifecycle.openrpc.json'];

async function gate(extra: string[]): Promise<{ code: number; stdout: string; dir: string; cell: ReturnType<typeof parseMatrixJson>['cells'][number] | undefined; junit: string }> {
  const dir = scratchDir('contract-gate-retries');
  const run = await runCli([...RUN, ...CONTRACT, '--report-dir', dir, ...extra], {}, 150_000);
  const matrixPath = join(dir, 'matrix.json');
  const matrix = parseMatrixJson(readFileSync(matrixPath, 'utf8'), matrixPath);
  return { code: run.code, stdout: run.stdout, dir, cell: matrix.cells.find((c) => c.method === CELL && c.check === 'result.schema'), junit: readFileSync(join(dir, 'junit.xml'), 'utf8') };
}

test('a target whose first answer is wrong: without retries the cell fails; --retries 2 reports it flaky with its attempts (exit 0); --fail-on-flaky fails the gate', async () => {
  test.setTimeout(170_000);
  const [plain, retried, strict] = await Promise.all([gate([]), gate(['--retries', '2']), gate(['--retries', '2', '--fail-on-flaky'])]);
  try {
    expect(plain.cell?.status, plain.stdout).toBe('fail');
    expect(plain.code).toBe(1);
    expect(plain.cell?.durationMs, 'the time its test took (a judged cell may take under a millisecond)').toBeGreaterThanOrEqual(0);
    expect(plain.junit).toMatch(/classname="result\.schema" time="\d+\.\d{3}"/);

    expect(retried.cell?.status, retried.stdout).toBe('flaky');
    expect(retried.cell?.attempts).toBeGreaterThanOrEqual(2);
    expect(retried.cell?.detail).toMatch(/^flaky: failed on attempt/);
    expect(retried.code, retried.stdout).toBe(0);
    expect(retried.stdout).toMatch(/1 flaky/);
    expect(retried.stdout).toMatch(new RegExp(`flaky after \\d attempts: ${CELL.replace('.', '\\.')} × result\\.schema`));
    expect(retried.junit).toMatch(/<property name="contract-gate\.attempts" value="\d"/);
    expect(retried.junit).toMatch(/<property name="contract-gate\.evidence\.answersJudged" value="[1-9]/);
    expect(readFileSync(join(retried.dir, 'matrix.md'), 'utf8')).toMatch(/attempts: \d/);

    expect(strict.cell?.status).toBe('flaky');
    expect(strict.code, strict.stdout).toBe(1);
  } finally {
    for (const run of [plain, retried, strict]) rmSync(run.dir, { recursive: true, force: true });
  }
});

const verdict = (status: CellVerdict['status'], detail: string = status): CellVerdict => ({ status, detail, violations: [] });

test('withRetries: a pass is never retried, a failure is retried up to N times, the first pass makes it flaky, and a failure on every attempt keeps the first one', async () => {
  let calls = 0;
  const never = async (): Promise<CellVerdict> => {
    calls++;
    return verdict('pass');
  };
  expect(await withRetries(verdict('pass'), never, 3)).toEqual(verdict('pass'));
  expect(await withRetries(verdict('n/a'), never, 3)).toEqual(verdict('n/a'));
  expect(await withRetries(verdict('fail', 'first'), never, 0)).toEqual(verdict('fail', 'first'));
  expect(calls).toBe(0);

  const answers: CellVerdict[] = [verdict('fail', 'second'), verdict('pass')];
  const flaky = await withRetries(verdict('fail', 'first'), async () => answers.shift() as CellVerdict, 3);
  expect(flaky).toMatchObject({ status: 'flaky', attempts: 3 });
  expect(flaky.detail).toContain('first');

  calls = 0;
  const failing = await withRetries(verdict('fail', 'first'), async () => (calls++, verdict('fail', 'again')), 2);
  expect(calls).toBe(2);
  expect(failing).toMatchObject({ status: 'fail', attempts: 3 });
  expect(failing.detail).toContain('first');
  expect(failing.context).toEqual(['attempt 2: fail: again', 'attempt 3: fail: again']);
});
