import { expect, test } from '@playwright/test';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { faultNamed, GATEWAY_FAULTS, type GatewayFault } from '../../gateway/index.js';
import { CHROMIUM_PATH } from '../../fixtures/scenarios/browserLane.js';
import { CHECKS } from '../../src/checks/checkCatalogue.js';
import { type CliResult, REPO, runCli } from '../unit/helpers/cliRunner.js';
import { cellKey, FAULT_CASES, type FaultCase } from './faultExpectations.js';
import { type CaseRun, grepFor, JobPool, runCase } from './selfTestRun.js';
import { renderFaultTable, type TableRow } from './selfTestTable.js';

/*
 * The harness proves that each check can fail, and fails for its own reason only: for every fault of the reference
 * gateway, `contract-gate run --fault NAME` must fail exactly the cells its expectation lists, and a clean run must
 * fail none. The runs are child processes, several at a time (SELFTEST_JOBS, default twice the core
 * count: a run spends part of its time waiting on sockets and timers), so the self-test takes the same time however
 * many Playwright workers run it.
 */

const RESULTS = join(REPO, 'test-results');
const RUNS = join(RESULTS, 'selftest');
const TABLE_FILE = join(RESULTS, 'selftest-table.md');
const README = join(import.meta.dirname, '..', '..', 'README.md');
const JOBS = Number(process.env['SELFTEST_JOBS'] ?? '') || 2 * availableParallelism();
/**
 * The browser lane is n/a without the system Chromium: then its cells are expected not to fail. Under CI Chromium
 * is a prerequisite (.ci/run installs it): its absence fails the self-test rather than shrinking it.
 */
const BROWSER = existsSync(CHROMIUM_PATH);

test('Chromium is present where the self-test runs in CI', () => {
  expect(BROWSER || !process.env['CI'], `no Chromium at ${CHROMIUM_PATH}: install Debian's chromium (see .ci/run)`).toBe(true);
});

const expectedFailing = (faultCase: FaultCase): string[] =>
  faultCase.failing.filter((cell) => BROWSER || cell.check !== 'scenario.browser-remote-lane').map(cellKey).sort();

function faultOf(faultCase: FaultCase): GatewayFault {
  const fault = faultNamed(faultCase.fault);
  if (!fault) throw new Error(`faultExpectations names ${faultCase.fault}, which the gateway does not know`);
  return fault;
}

const expectedRows = (): TableRow[] =>
  FAULT_CASES.map((faultCase) => ({ fault: faultOf(faultCase), detectedBy: faultCase.failing.map(cellKey).sort(), ...(faultCase.shared ? { shared: faultCase.shared } : {}) }));

/** The replay commands a run's report prints for its failing cells (`npx contract-gate replay <file>`), as absolute paths. */
function printedReplays(run: CaseRun): string[] {
  const matrix = join(run.reportDir, 'matrix.md');
  if (!existsSync(matrix)) return [];
  return [...readFileSync(matrix, 'utf8').matchAll(/npx contract-gate replay (\S+\.json)/g)].map((match) => resolve(run.reportDir, match[1] as string));
}

interface FaultRun {
  readonly run: CaseRun;
  readonly replays: ReadonlyArray<{ file: string; result: CliResult }>;
}

async function runFaultCase(faultCase: FaultCase): Promise<FaultRun> {
  const run = await runCase(faultCase, join(RUNS, faultCase.fault), grepFor(faultCase));
  const replays = [];
  if (faultCase.replay) for (const file of printedReplays(run)) replays.push({ file, result: await runCli(['replay', file]) });
  return { run, replays };
}

const isScenarioCase = (faultCase: FaultCase): boolean => faultCase.failing.some((cell) => cell.check.startsWith('scenario.') || cell.check.startsWith('skew.'));

test.describe.configure({ mode: 'parallel' });

test('the expectations cover every fault and every check, each fault fails its own check, and the README section shows them', () => {
  const names = FAULT_CASES.map((faultCase) => faultCase.fault);
  expect(new Set(names).size, 'a fault listed twice').toBe(names.length);
  expect([...names].sort()).toEqual(GATEWAY_FAULTS.map((fault) => fault.name).sort());
  for (const faultCase of FAULT_CASES) {
    const own = faultOf(faultCase).check;
    expect(faultCase.failing.some((cell) => cell.check === own), `${faultCase.fault} must fail ${own}, the check meant for it`).toBe(true);
    if (faultCase.failing.some((cell) => cell.check !== own)) expect(faultCase.shared, `${faultCase.fault} fails other checks too: say why`).toBeTruthy();
  }
  const canFail = new Set(FAULT_CASES.flatMap((faultCase) => faultCase.failing.map((cell) => cell.check)));
  expect(CHECKS.map((check) => check.id).filter((id) => !canFail.has(id)), 'checks no fault makes fail').toEqual([]);
  expect(readFileSync(README, 'utf8'), 'the README\'s "Trusting the tool" section shows the current table').toContain(renderFaultTable(expectedRows()));
});

test('every fault fails exactly the cells of its expectation, and the clean gateway none', async () => {
  test.setTimeout(15 * 60_000);
  rmSync(RUNS, { recursive: true, force: true });
  mkdirSync(RUNS, { recursive: true });
  const started = Date.now();
  const pool = new JobPool(JOBS);
  const clean = pool.run(() => runCase(undefined, join(RUNS, '_clean'), undefined));
  // Scenario runs take longest: queued first, so that the pool does not end on one of them.
  const queued = new Map<FaultCase, Promise<FaultRun>>();
  for (const faultCase of [...FAULT_CASES].sort((a, b) => Number(isScenarioCase(b)) - Number(isScenarioCase(a)))) queued.set(faultCase, pool.run(() => runFaultCase(faultCase)));
  const faulty = FAULT_CASES.map((faultCase) => ({ faultCase, grep: grepFor(faultCase), run: queued.get(faultCase) as Promise<FaultRun> }));

  await test.step('the clean gateway: one full run, every cell passes or is n/a', async () => {
    const run = await clean;
    expect.soft(run.failing, 'failing cells of the clean gateway').toEqual([]);
    expect.soft(run.notRun, 'cells that did not run').toEqual([]);
    expect.soft(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const judged = new Set(run.cells.map((cell) => cell.check));
    // skew.client-contract cells exist only with --client-contract (the skew.cwd-without-flag-refused case runs it);
    // the (auth) row only against a gated target (every auth fault case runs the embedded gateway gated).
    const elsewhere = (id: string): boolean => id === 'skew.client-contract' || id.startsWith('auth.');
    expect.soft(CHECKS.map((check) => check.id).filter((id) => !elsewhere(id) && !judged.has(id)), 'checks missing from the full run').toEqual([]);
  });

  const observed: TableRow[] = [];
  const timings: string[] = [];
  for (const { faultCase, grep, run } of faulty) {
    await test.step(`${faultCase.fault} (--grep ${grep})`, async () => {
      const { run: result, replays } = await run;
      timings.push(`${faultCase.fault} ${(result.elapsedMs / 1000).toFixed(1)} s (${result.cells.length} cells)`);
      observed.push({ fault: faultOf(faultCase), detectedBy: result.failing, ...(faultCase.shared ? { shared: faultCase.shared } : {}) });
      const context = `${faultCase.fault}, report ${result.reportDir}\n${result.stdout.slice(-2_000)}\n${result.stderr.slice(-2_000)}`;
      const expected = expectedFailing(faultCase);
      expect.soft(result.failing, `failing cells of ${context}`).toEqual(expected);
      expect.soft(result.notRun, `cells that did not run: ${context}`).toEqual([]);
      expect.soft(result.code, `exit code: ${context}`).toBe(expected.length > 0 ? 1 : 0);
      if (!faultCase.replay) return;
      const methodCells = faultCase.failing.filter((cell) => !cell.check.startsWith('scenario.') && !cell.check.startsWith('event.'));
      expect.soft(replays.length, `replay commands printed for ${faultCase.fault}`).toBe(methodCells.length);
      for (const { file, result: replayed } of replays) {
        expect.soft(replayed.code, `contract-gate replay ${file} must reproduce the failure:\n${replayed.stdout}\n${replayed.stderr}`).toBe(1);
        expect.soft(replayed.stdout).toContain('REPRODUCED');
      }
    });
  }

  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const table = renderFaultTable(observed);
  mkdirSync(RESULTS, { recursive: true });
  const cleanSeconds = ((await clean).elapsedMs / 1000).toFixed(1);
  writeFileSync(
    TABLE_FILE,
    `# Self-test: fault → detecting checks (observed)\n\n${FAULT_CASES.length} faults and one clean run in ${seconds} s, ${JOBS} at a time.\n\n${table}\n\n## Run times\n\n- clean gateway (full run) ${cleanSeconds} s\n${timings.map((line) => `- ${line}`).join('\n')}\n`,
  );
  process.stdout.write(`\n${table}\n\nself-test: ${FAULT_CASES.length} faults and one clean run in ${seconds} s (${JOBS} at a time); table written to ${TABLE_FILE}\n`);
});
