import { expect, test } from '../unit/helpers/test.js';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../unit/helpers/cliRunner.js';
import { cellKey, FAULT_CASES, type FaultCase } from '../selftest/faultExpectations.js';
import { type CaseRun, runCase, runCaseInProcess } from '../selftest/selfTestRun.js';
import { METHOD_CHECKS } from '../../src/conformance/methodRunTypes.js';
import { loadContractSync } from '../../src/contracts/loadContract.js';

/*
 * The run engine (`--runner in-process`, the default) and Playwright (`--runner playwright`) run the same cell
 * declarations: on the same seed they must give every cell the same status. One faulty run of the whole
 * session-lifecycle document holds them to that on both kinds of cell at once: the few the fault fails and the
 * hundreds it leaves passing or n/a. Both go through the CLI, so the engine runs as users run it (on a document this
 * size, the method runs' gateways in its own process). The same run is also made in this process
 * (fixtures/inProcessRun.ts, as the self-test runs its faults) with those gateways in the child process that hosts
 * them on large documents: it must give the CLI's answer. (A clean run of the same document exits 0 in
 * `npm run test:suites`, and of the full document in the self-test.)
 */

const DIR = join(REPO, 'test-results', 'runner-equivalence');
const CONTRACT = 'profiles/hermes/contracts/session-lifecycle.openrpc.json';
/**
 * Every family of cells on the 33-method document: the engine on two lanes (in its process and through the CLI),
 * Playwright on one worker per project (its prepare and conformance projects still run in different processes and
 * share the method runs through files). The statuses must not depend on how many cells run at once; one worker
 * fewer is a process start-up fewer per project (about 2.5 s of CPU).
 */
/**
 * A sequence fault beside it: the two stateful cells share one search. Playwright's single worker fails the first
 * and goes on with the second in a fresh worker, which takes the search from the run's folder; the engine's lanes
 * share it in memory.
 */
const SEQUENCE_FAULT = ['--fault', 'sequence.interrupt-ignored', '--stateful-runs', '100'];
const ARGS = ['--workers', '2', ...SEQUENCE_FAULT];
const PLAYWRIGHT = ['--runner', 'playwright', '--workers', '1', ...SEQUENCE_FAULT];
/** A fault whose failing cells the self-test pins down: here the whole document runs, not only its rows. */
const FAULTY = FAULT_CASES.find((faultCase) => faultCase.fault === 'params.unknown-keys-accepted') as FaultCase;

/** Says that a stateful cell took the other one's search, or ran it for both. */
const TAKEN = / \(judged on the search the stateful\.\w+ cell ran for both checks\)$/;
const SEARCHED = / \(one search for both checks, every step in lockstep with the reference\)$/;
/** The stateful cells' details without their rate (commands per second) or those notes: sequences, commands, the shrunk calls. */
const statefulDetails = (run: CaseRun): string[] =>
  run.cells.filter((cell) => cell.method === '(stateful)').map((cell) => (cell.detail ?? '').replace(/ \(\d+\/s\)/, '').replace(TAKEN, '').replace(SEARCHED, ''));
const statuses = (run: CaseRun): string[] => run.cells.map((cell) => `${cell.method} × ${cell.check}: ${cell.status}`);
const context = (run: CaseRun): string => `${run.reportDir}\n${run.stdout.slice(-1_500)}\n${run.stderr.slice(-1_500)}`;

test(`with the gateway fault ${FAULTY.fault} on the session-lifecycle document the engine gives every cell the status Playwright gives it, in its process and through the CLI, fails the cells Playwright fails and no other, judges both stateful checks from one search, and writes the same report files`, async () => {
  test.setTimeout(6 * 60_000);
  rmSync(DIR, { recursive: true, force: true });
  const [engine, playwright, inProcess] = await Promise.all([
    runCase(FAULTY, join(DIR, 'engine'), undefined, ARGS),
    runCase(FAULTY, join(DIR, 'playwright'), undefined, PLAYWRIGHT),
    runCaseInProcess(FAULTY, join(DIR, 'in-process'), undefined, ARGS, { placement: 'child-process' }),
  ]);
  expect(playwright.code, context(playwright)).toBe(1);
  expect(engine.code, context(engine)).toBe(1);
  const ran = new Set(engine.cells.map((cell) => `${cell.method} × ${cell.check}`));
  const methodCells = loadContractSync(join(REPO, CONTRACT)).methods.flatMap((method) => METHOD_CHECKS.map((check) => `${method.name} × ${check}`));
  expect(methodCells.filter((key) => !ran.has(key)), `method cells missing from the run of ${CONTRACT}`).toEqual([]);
  expect(engine.failing).toEqual(expect.arrayContaining(FAULTY.failing.map(cellKey)));
  expect(statuses(engine)).toEqual(statuses(playwright));
  expect(statuses(inProcess), 'gateways in the child process vs in the CLI process').toEqual(statuses(engine));
  expect(engine.cells.filter((cell) => cell.status === 'pass').length, 'cells the fault leaves passing').toBeGreaterThan(300);
  for (const run of [engine, playwright, inProcess]) {
    const stateful = run.cells.filter((cell) => cell.method === '(stateful)');
    expect(stateful.map((cell) => `${cell.check}: ${cell.status}`), run.reportDir).toEqual(['stateful.differential: fail', 'stateful.model: fail']);
    const [differential, model] = statefulDetails(run);
    expect(model, `one search judged both stateful checks (${run.reportDir})`).toBe(differential);
    expect(stateful.filter((cell) => TAKEN.test(cell.detail ?? '')), 'one cell took the search the other ran').toHaveLength(1);
    expect(stateful.filter((cell) => SEARCHED.test(cell.detail ?? '')), 'one cell ran the search for both').toHaveLength(1);
    const [differentialEvidence, modelEvidence] = stateful.map((cell) => cell.evidence);
    expect(modelEvidence?.sequencesRun, 'the model cell ran the sequences it judged').toBeGreaterThan(0);
    expect(modelEvidence?.sequencesRun).toBe(differentialEvidence?.sequencesRun);
    expect(modelEvidence?.answersJudged, "the model judged the target's answers, the lockstep both systems'").toBeLessThan(differentialEvidence?.answersJudged ?? 0);
  }
  expect(statefulDetails(playwright), 'Playwright vs the engine').toEqual(statefulDetails(engine));
  for (const file of ['matrix.json', 'matrix.md', 'matrix.html', 'junit.xml']) expect.soft(existsSync(join(engine.reportDir, file)), file).toBe(true);
  const allure = readdirSync(join(engine.reportDir, 'allure-results')).filter((name) => name.endsWith('-result.json'));
  expect(allure).toHaveLength(engine.cells.length);
  expect(engine.stdout).toMatch(/contract-gate: \d+ checks in [\d.]+s: \d+ passed, \d+ failed/);
  expect(engine.stdout).toContain(`FAIL ${FAULTY.failing[0]?.subject} × ${FAULTY.failing[0]?.check}`);
});
