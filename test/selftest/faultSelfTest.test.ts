import { expect, test } from '../unit/helpers/test.js';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { faultNamed, GATEWAY_FAULTS, type GatewayFault } from '../../gateway/index.js';
import { CHROMIUM_PATH, holdSharedBrowser } from '../../profiles/hermes/cells/sharedBrowser.js';
import { ORACLE_RULES } from '../../src/checks/checkCatalogue.js';
import { allChecks } from '../../profiles/index.js';
import { type CliResult, REPO, runCli } from '../unit/helpers/cliRunner.js';
import { BROWSER_LANE_ANNOTATION, browserLaneDrop, CHROMIUM_INSTALL } from './browserLaneDrop.js';
import { cellKey, FAULT_CASES, type FaultCase } from './faultExpectations.js';
import { type CaseRun, grepFor, JobPool, replayInProcess, runCase, runCaseInProcess } from './selfTestRun.js';
import { renderFaultTable, type TableRow } from './selfTestTable.js';

/*
 * The harness proves that each check can fail, and fails for its own reason only: for every fault of the reference
 * gateway, `contract-gate run --fault NAME` must fail exactly the cells its expectation lists. The control, a clean
 * full run that must fail none, is the evidence audit's clean run (test/slow/evidenceAudit.test.ts), which also holds
 * every check to a pass with evidence there. The runs use the CLI's options and run configuration but the in-process
 * runner (fixtures/inProcessRun.ts) instead of a Playwright process each, and their replay commands in this process
 * too: the fault runs in two shard tests (two worker processes, so that both cores work), each running several at a
 * time (SELFTEST_JOBS, default two per core: a run spends most of its time waiting on sockets and timers). One fault
 * run goes through the CLI end to end (exit code, matrix files, replay command), and the in-process runner is held to
 * the CLI's answer on that run (and on the whole document with the same fault in runnerEquivalence.test.ts).
 * SELFTEST_FAULTS=a,b runs only those faults while working on them.
 */

const RESULTS = join(REPO, 'test-results');
const RUNS = join(RESULTS, 'selftest');
const TABLE_FILE = join(RESULTS, 'selftest-table.md');
const README = join(import.meta.dirname, '..', '..', 'docs', 'self-test.md');
const JOBS = Number(process.env['SELFTEST_JOBS'] ?? '') || 2 * availableParallelism();
const ONLY = process.env['SELFTEST_FAULTS']?.split(',').filter((name) => name.length > 0);
const CASES = ONLY ? FAULT_CASES.filter((faultCase) => ONLY.includes(faultCase.fault)) : FAULT_CASES;
/** The case run through the CLI end to end: one whose failing method cells print replay commands. */
const END_TO_END = FAULT_CASES.find((faultCase) => faultCase.replay) as FaultCase;
/**
 * The browser lane is n/a without the system Chromium: then its cells are expected not to fail, and the run says so
 * (on stderr once, and in an annotation of each test whose expectations shrank). Under CI Chromium is a
 * prerequisite (.ci/run installs it): its absence fails the self-test rather than shrinking it.
 */
const BROWSER = existsSync(CHROMIUM_PATH);
const BROWSER_LANE = browserLaneDrop(CHROMIUM_PATH, BROWSER);
// Playwright loads this file in its runner process (to list the tests) and again in each worker: the runner, which
// has no TEST_WORKER_INDEX, prints the notice, once per run and whichever tests are selected.
const BROWSER_LANE_NOTICE = BROWSER_LANE.notice(CASES);
if (BROWSER_LANE_NOTICE && process.env['TEST_WORKER_INDEX'] === undefined) process.stderr.write(`\n${BROWSER_LANE_NOTICE}\n\n`);

/** Annotates the running test with what its cases lost of the browser lane, if anything. */
function noteDroppedBrowserLane(cases: readonly FaultCase[]): void {
  const notice = BROWSER_LANE.notice(cases);
  if (notice) test.info().annotations.push({ type: BROWSER_LANE_ANNOTATION, description: notice });
}
/** The longest shrunk counterexample a sequence-only fault may leave. */
const MAX_SHRUNK_CALLS = 6;

const expectedFailing = (faultCase: FaultCase): string[] => BROWSER_LANE.expected(faultCase).map(cellKey).sort();

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

/** How a fault case is run: through the CLI (run and replay commands as child processes) or in this process. */
const IN_PROCESS = { run: runCaseInProcess, replay: replayInProcess };
const THROUGH_CLI = { run: runCase, replay: (file: string) => runCli(['replay', file]) };

async function runFaultCase(faultCase: FaultCase, runner = IN_PROCESS, reportDir = join(RUNS, faultCase.fault)): Promise<FaultRun> {
  const run = await runner.run(faultCase, reportDir, grepFor(faultCase));
  const replays = [];
  if (faultCase.replay) for (const file of printedReplays(run)) replays.push({ file, result: await runner.replay(file) });
  return { run, replays };
}

const isScenarioCase = (faultCase: FaultCase): boolean => faultCase.failing.some((cell) => cell.check.startsWith('scenario.') || cell.check.startsWith('skew.'));

test.describe.configure({ mode: 'parallel' });

/** The replay checks of a case: each failing method cell printed a replay command that reproduces the failure. */
function expectReplays(faultCase: FaultCase, replays: FaultRun['replays']): void {
  const methodCells = faultCase.failing.filter((cell) => !cell.check.startsWith('scenario.') && !cell.check.startsWith('event.'));
  expect.soft(replays.length, `replay commands printed for ${faultCase.fault}`).toBe(methodCells.length);
  for (const { file, result: replayed } of replays) {
    expect.soft(replayed.code, `contract-gate replay ${file} must reproduce the failure:\n${replayed.stdout}\n${replayed.stderr}`).toBe(1);
    expect.soft(replayed.stdout).toContain('REPRODUCED');
  }
}

// The long tests come first, so that they start on the first workers: the CLI end to end, then the fault shards
// (three long tests: with four workers in CI one is left for the unit tests from the start); the quick checks last.
// The in-process runner against the CLI on the whole document is runnerEquivalence's (it runs that CLI run anyway).

/** What two runners must agree on: the same cells, each with the same status. */
const statuses = (run: CaseRun): string[] => run.cells.map((cell) => `${cell.method} × ${cell.check}: ${cell.status}`);

test(`the CLI end to end (${END_TO_END.fault}: exit code, matrix files, replay command), and the in-process runner gives the CLI's answer on it`, async () => {
  test.setTimeout(5 * 60_000);
  noteDroppedBrowserLane([END_TO_END]);
  const dir = join(RESULTS, 'selftest-cli');
  rmSync(dir, { recursive: true, force: true });
  const [cliFault, inProcessFault] = await Promise.all([
    runFaultCase(END_TO_END, THROUGH_CLI, join(dir, 'cli-fault')),
    runCaseInProcess(END_TO_END, join(dir, 'in-process-fault'), grepFor(END_TO_END)),
  ]);
  const { run } = cliFault;
  const context = `${run.reportDir}\n${run.stdout.slice(-2_000)}\n${run.stderr.slice(-2_000)}`;
  expect.soft(run.code, `exit code: ${context}`).toBe(1);
  for (const file of ['matrix.json', 'matrix.md', 'matrix.html', 'junit.xml']) expect.soft(existsSync(join(run.reportDir, file)), `${file} in ${run.reportDir}`).toBe(true);
  expect.soft(run.failing, `failing cells: ${context}`).toEqual(expectedFailing(END_TO_END));
  // A fault that fails its own check draws no warning that it failed nothing (test/unit/cliFaultWarning.test.ts).
  expect.soft(run.stderr, context).not.toMatch(/--fault .* failed no .* cell, the check meant to catch it/);
  expectReplays(END_TO_END, cliFault.replays);
  expect.soft(statuses(inProcessFault), `in process vs CLI, ${END_TO_END.fault}`).toEqual(statuses(run));
});

/**
 * The fault runs, dealt into SHARDS tests that Playwright gives to different workers (each its own process, so the
 * runs use every core), longest first; each shard runs JOBS at a time. Each shard leaves its table rows and run
 * times in a part file; the test that completes the set writes the table.
 */
const SHARDS = 2;
const PARTS = join(RESULTS, 'selftest-parts');
/** The Playwright runner every worker of this run shares: part files of an earlier run are never mixed in. */
const RUN_ID = String(process.ppid);

interface ObservedPart {
  readonly rows: ReadonlyArray<{ fault: string; detectedBy: readonly string[]; shared?: string }>;
  readonly timings: readonly string[];
}

function writeObserved(part: string, rows: ObservedPart['rows'], timings: readonly string[]): void {
  if (ONLY) return;
  mkdirSync(PARTS, { recursive: true });
  writeFileSync(join(PARTS, `${RUN_ID}-${part}.json`), JSON.stringify({ rows, timings } satisfies ObservedPart));
  const names = Array.from({ length: SHARDS }, (_, index) => `shard-${index + 1}`);
  const paths = names.map((name) => join(PARTS, `${RUN_ID}-${name}.json`));
  if (!paths.every((path) => existsSync(path))) return;
  const parts = paths.map((path) => JSON.parse(readFileSync(path, 'utf8')) as ObservedPart);
  const order = new Map(FAULT_CASES.map((faultCase, index) => [faultCase.fault, index]));
  const observed: TableRow[] = parts
    .flatMap((p) => p.rows)
    .sort((a, b) => (order.get(a.fault) ?? 0) - (order.get(b.fault) ?? 0))
    .map((row) => ({ fault: faultOf(FAULT_CASES[order.get(row.fault) ?? -1] as FaultCase), detectedBy: row.detectedBy, ...(row.shared ? { shared: row.shared } : {}) }));
  const table = renderFaultTable(observed);
  const seconds = (process.uptime()).toFixed(0);
  writeFileSync(
    TABLE_FILE,
    `# Self-test: fault → detecting checks (observed)\n\n${observed.length} faults, in process: ${SHARDS} shards of ${JOBS} runs at a time, the last done ${seconds} s after its worker started.\n\n${table}\n\n## Run times\n\n${parts.flatMap((p) => p.timings).map((line) => `- ${line}`).join('\n')}\n`,
  );
  for (const path of paths) rmSync(path, { force: true });
  process.stdout.write(`\n${table}\n\nself-test: ${observed.length} faults (${SHARDS} shards, ${JOBS} at a time each, in process); table written to ${TABLE_FILE}\n`);
}

/** Expected run time, longest first: stateful sequences shrink, scenario runs wait on sockets and timers. */
const weightOf = (faultCase: FaultCase): number => (faultCase.failing.some((cell) => cell.check.startsWith('stateful.')) ? 2 : isScenarioCase(faultCase) ? 1 : 0);
const SHARDED = [...CASES].sort((a, b) => weightOf(b) - weightOf(a));

for (let shard = 1; shard <= SHARDS; shard++) {
  const mine = SHARDED.filter((_, index) => index % SHARDS === shard - 1);
  test(`every fault fails exactly the cells of its expectation (shard ${shard} of ${SHARDS}: ${mine.length} faults)`, async () => {
    test.setTimeout(10 * 60_000);
    noteDroppedBrowserLane(mine);
    // The browser-lane cells of this shard's runs share one Chromium (each in browser contexts of its own).
    const releaseBrowser = holdSharedBrowser();
    const pool = new JobPool(JOBS);
    const queued = new Map<FaultCase, Promise<FaultRun>>();
    for (const faultCase of mine) queued.set(faultCase, pool.run(() => runFaultCase(faultCase)));
    const rows: Array<ObservedPart['rows'][number]> = [];
    const timings: string[] = [];
    try {
      for (const faultCase of CASES.filter((c) => queued.has(c))) {
        const grep = grepFor(faultCase);
        await test.step(`${faultCase.fault} (--grep ${grep})`, async () => {
          const { run: result, replays } = await (queued.get(faultCase) as Promise<FaultRun>);
          timings.push(`${faultCase.fault} ${(result.elapsedMs / 1000).toFixed(1)} s (${result.cells.length} cells)`);
          rows.push({ fault: faultCase.fault, detectedBy: result.failing, ...(faultCase.shared ? { shared: faultCase.shared } : {}) });
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
    } finally {
      await Promise.allSettled(queued.values());
      await releaseBrowser();
    }
    writeObserved(`shard-${shard}`, rows, timings);
  });
}

test('Chromium is present where the self-test runs in CI; elsewhere its absence is announced', () => {
  expect(BROWSER || !process.env['CI'], `no Chromium at ${CHROMIUM_PATH}: install Debian's chromium (${CHROMIUM_INSTALL}, as .ci/run does)`).toBe(true);
  noteDroppedBrowserLane(CASES);
});

test('the expectations cover every fault and every check, each fault fails its own check, and docs/self-test.md shows them', () => {
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
  expect(allChecks().ids.filter((id) => !canFail.has(id)), 'checks no fault makes fail').toEqual([]);
  expect(readFileSync(README, 'utf8'), 'the README\'s "Trusting the tool" section shows the current table').toContain(renderFaultTable(expectedRows()));
});

