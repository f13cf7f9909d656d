import { expect, test } from '@playwright/test';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { faultNamed, GATEWAY_FAULTS, type GatewayFault } from '../../gateway/index.js';
import { CHROMIUM_PATH } from '../../fixtures/scenarios/browserLane.js';
import { CHECKS, ORACLE_RULES } from '../../src/checks/checkCatalogue.js';
import { type CliResult, REPO, runCli } from '../unit/helpers/cliRunner.js';
import { cellKey, FAULT_CASES, type FaultCase } from './faultExpectations.js';
import { type CaseRun, grepFor, JobPool, runCase, runCaseInProcess } from './selfTestRun.js';
import { renderFaultTable, type TableRow } from './selfTestTable.js';

/*
 * The harness proves that each check can fail, and fails for its own reason only: for every fault of the reference
 * gateway, `contract-gate run --fault NAME` must fail exactly the cells its expectation lists, and a clean run must
 * fail none. The runs use the CLI's options and run configuration but the in-process runner (fixtures/inProcessRun.ts)
 * instead of a Playwright process each, several at a time (SELFTEST_JOBS, default two per core: a run spends most of
 * its time waiting on sockets and timers). One fault run goes through the CLI end to end (exit code, matrix files,
 * replay command), and the in-process runner is held to the CLI's answer on that run and on a clean one.
 * SELFTEST_FAULTS=a,b runs only those faults (and no clean run) while working on them.
 */

const RESULTS = join(REPO, 'test-results');
const RUNS = join(RESULTS, 'selftest');
const TABLE_FILE = join(RESULTS, 'selftest-table.md');
const README = join(import.meta.dirname, '..', '..', 'README.md');
const JOBS = Number(process.env['SELFTEST_JOBS'] ?? '') || 2 * availableParallelism();
const ONLY = process.env['SELFTEST_FAULTS']?.split(',').filter((name) => name.length > 0);
const CASES = ONLY ? FAULT_CASES.filter((faultCase) => ONLY.includes(faultCase.fault)) : FAULT_CASES;
/** The case run through the CLI end to end: one whose failing method cells print replay commands. */
const END_TO_END = FAULT_CASES.find((faultCase) => faultCase.replay) as FaultCase;
/**
 * The browser lane is n/a without the system Chromium: then its cells are expected not to fail. Under CI Chromium
 * is a prerequisite (.ci/run installs it): its absence fails the self-test rather than shrinking it.
 */
const BROWSER = existsSync(CHROMIUM_PATH);
/** The longest shrunk counterexample a sequence-only fault may leave. */
const MAX_SHRUNK_CALLS = 6;

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

async function runFaultCase(faultCase: FaultCase, runner = runCaseInProcess, reportDir = join(RUNS, faultCase.fault)): Promise<FaultRun> {
  const run = await runner(faultCase, reportDir, grepFor(faultCase));
  const replays = [];
  if (faultCase.replay) for (const file of printedReplays(run)) replays.push({ file, result: await runCli(['replay', file]) });
  return { run, replays };
}

const isScenarioCase = (faultCase: FaultCase): boolean => faultCase.failing.some((cell) => cell.check.startsWith('scenario.') || cell.check.startsWith('skew.'));

test.describe.configure({ mode: 'parallel' });

test('the expectations cover every fault and every check, each fault fails its own check, and the README section shows them', () => {
  const names = FAULT_CASES.map((faultCase) => faultCase.fault);
  expect(new Set(names).size, 'a fault listed twice').toBe(names.length);
  // Faults of the oracle's own rules are proven by unit tests, not by matrix cells (see ORACLE_RULES).
  const oracle = new Set<string>(ORACLE_RULES);
  expect([...names].sort()).toEqual(GATEWAY_FAULTS.filter((fault) => !oracle.has(fault.check)).map((fault) => fault.name).sort());
  for (const faultCase of FAULT_CASES) {
    const own = faultOf(faultCase).check;
    expect(faultCase.failing.some((cell) => cell.check === own), `${faultCase.fault} must fail ${own}, the check meant for it`).toBe(true);
    if (faultCase.failing.some((cell) => cell.check !== own)) expect(faultCase.shared, `${faultCase.fault} fails other checks too: say why`).toBeTruthy();
  }
  const canFail = new Set(FAULT_CASES.flatMap((faultCase) => faultCase.failing.map((cell) => cell.check)));
  expect(CHECKS.map((check) => check.id).filter((id) => !canFail.has(id)), 'checks no fault makes fail').toEqual([]);
  expect(readFileSync(README, 'utf8'), 'the README\'s "Trusting the tool" section shows the current table').toContain(renderFaultTable(expectedRows()));
});

/** The replay checks of a case: each failing method cell printed a replay command that reproduces the failure. */
function expectReplays(faultCase: FaultCase, replays: FaultRun['replays']): void {
  const methodCells = faultCase.failing.filter((cell) => !cell.check.startsWith('scenario.') && !cell.check.startsWith('event.'));
  expect.soft(replays.length, `replay commands printed for ${faultCase.fault}`).toBe(methodCells.length);
  for (const { file, result: replayed } of replays) {
    expect.soft(replayed.code, `contract-gate replay ${file} must reproduce the failure:\n${replayed.stdout}\n${replayed.stderr}`).toBe(1);
    expect.soft(replayed.stdout).toContain('REPRODUCED');
  }
}

test('every fault fails exactly the cells of its expectation, and the clean gateway none', async () => {
  test.setTimeout(10 * 60_000);
  rmSync(RUNS, { recursive: true, force: true });
  mkdirSync(RUNS, { recursive: true });
  const started = Date.now();
  const pool = new JobPool(JOBS);
  const clean = ONLY ? undefined : pool.run(() => runCaseInProcess(undefined, join(RUNS, '_clean'), undefined));
  // Scenario runs take longest: queued first, so that the pool does not end on one of them.
  const queued = new Map<FaultCase, Promise<FaultRun>>();
  for (const faultCase of [...CASES].sort((a, b) => Number(isScenarioCase(b)) - Number(isScenarioCase(a)))) queued.set(faultCase, pool.run(() => runFaultCase(faultCase)));
  const faulty = CASES.map((faultCase) => ({ faultCase, grep: grepFor(faultCase), run: queued.get(faultCase) as Promise<FaultRun> }));

  if (clean) {
    await test.step('the clean gateway: one full run, every cell passes or is n/a', async () => {
      const run = await clean;
      expect.soft(run.failing, 'failing cells of the clean gateway').toEqual([]);
      expect.soft(run.notRun, 'cells that did not run').toEqual([]);
      const judged = new Set(run.cells.map((cell) => cell.check));
      // skew.client-contract cells exist only with --client-contract (the skew.cwd-without-flag-refused case runs it);
      // the (auth) row only against a gated target (every auth fault case runs the embedded gateway gated).
      const elsewhere = (id: string): boolean => id === 'skew.client-contract' || id.startsWith('auth.');
      expect.soft(CHECKS.map((check) => check.id).filter((id) => !elsewhere(id) && !judged.has(id)), 'checks missing from the full run').toEqual([]);
    });
  }

  const observed: TableRow[] = [];
  const timings: string[] = [];
  for (const { faultCase, grep, run } of faulty) {
    await test.step(`${faultCase.fault} (--grep ${grep})`, async () => {
      const { run: result, replays } = await run;
      timings.push(`${faultCase.fault} ${(result.elapsedMs / 1000).toFixed(1)} s (${result.cells.length} cells)`);
      observed.push({ fault: faultOf(faultCase), detectedBy: result.failing, ...(faultCase.shared ? { shared: faultCase.shared } : {}) });
      const context = `${faultCase.fault}, report ${result.reportDir}`;
      expect.soft(result.failing, `failing cells of ${context}`).toEqual(expectedFailing(faultCase));
      expect.soft(result.notRun, `cells that did not run: ${context}`).toEqual([]);
      // A sequence-only fault must shrink to a counterexample of at most MAX_SHRUNK_CALLS calls (its replay runs below).
      for (const cell of result.cells.filter((c) => c.status === 'fail' && c.check.startsWith('stateful.'))) {
        const calls = Number(/shrunk to (\d+) call/.exec(cell.detail ?? '')?.[1] ?? Number.NaN);
        expect.soft(calls, `${cell.method} × ${cell.check} of ${context}: ${cell.detail}`).toBeLessThanOrEqual(MAX_SHRUNK_CALLS);
      }
      if (faultCase.replay) expectReplays(faultCase, replays);
    });
  }
  if (ONLY || !clean) return;

  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const table = renderFaultTable(observed);
  mkdirSync(RESULTS, { recursive: true });
  const cleanSeconds = ((await clean).elapsedMs / 1000).toFixed(1);
  writeFileSync(
    TABLE_FILE,
    `# Self-test: fault → detecting checks (observed)\n\n${CASES.length} faults and one clean run in ${seconds} s, ${JOBS} at a time, in process.\n\n${table}\n\n## Run times\n\n- clean gateway (full run) ${cleanSeconds} s\n${timings.map((line) => `- ${line}`).join('\n')}\n`,
  );
  process.stdout.write(`\n${table}\n\nself-test: ${CASES.length} faults and one clean run in ${seconds} s (${JOBS} at a time, in process); table written to ${TABLE_FILE}\n`);
});

/** The clean run both runners make: every family of cells, on the 33-method document whatever the default contract. */
const EQUIVALENCE_CLEAN_ARGS = ['--contract', 'contracts/hermes/session-lifecycle.openrpc.json'];

/** What two runners must agree on: the same cells, each with the same status. */
const statuses = (run: CaseRun): string[] => run.cells.map((cell) => `${cell.method} × ${cell.check}: ${cell.status}`);

test(`the CLI end to end (${END_TO_END.fault}: exit code, matrix files, replay command), and the in-process runner gives the CLI's answer on it and on a clean run`, async () => {
  test.setTimeout(5 * 60_000);
  const dir = join(RESULTS, 'selftest-cli');
  rmSync(dir, { recursive: true, force: true });
  const [cliFault, cliClean, inProcessFault, inProcessClean] = await Promise.all([
    runFaultCase(END_TO_END, runCase, join(dir, 'cli-fault')),
    runCase(undefined, join(dir, 'cli-clean'), undefined, EQUIVALENCE_CLEAN_ARGS),
    runCaseInProcess(END_TO_END, join(dir, 'in-process-fault'), grepFor(END_TO_END)),
    runCaseInProcess(undefined, join(dir, 'in-process-clean'), undefined, EQUIVALENCE_CLEAN_ARGS),
  ]);
  const { run } = cliFault;
  const context = `${run.reportDir}\n${run.stdout.slice(-2_000)}\n${run.stderr.slice(-2_000)}`;
  expect.soft(run.code, `exit code: ${context}`).toBe(1);
  for (const file of ['matrix.json', 'matrix.md', 'matrix.html', 'junit.xml']) expect.soft(existsSync(join(run.reportDir, file)), `${file} in ${run.reportDir}`).toBe(true);
  expect.soft(run.failing, `failing cells: ${context}`).toEqual(expectedFailing(END_TO_END));
  expectReplays(END_TO_END, cliFault.replays);
  expect.soft(cliClean.code, `clean run: ${cliClean.stdout.slice(-2_000)}\n${cliClean.stderr.slice(-2_000)}`).toBe(0);

  expect.soft(cliClean.cells.length, 'cells of the clean run').toBeGreaterThan(0);
  expect.soft(statuses(inProcessClean), 'in process vs CLI, clean run').toEqual(statuses(cliClean));
  expect.soft(statuses(inProcessFault), `in process vs CLI, ${END_TO_END.fault}`).toEqual(statuses(run));
});
