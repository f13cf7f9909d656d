import { Command } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadBaseline } from '../../src/report/baseline.js';
import type { Matrix } from '../../src/report/matrixTypes.js';
import { parseMatrixJson } from '../../src/report/renderJson.js';
import { budgetOverrunSentence } from '../../src/report/runsText.js';
import { factLines, gateLines } from '../../src/report/verdictLines.js';
import { decideRunConfig } from '../../src/config/decideRunConfig.js';
import { loadRunSettings } from '../../src/config/loadRunSettings.js';
import type { RunSettings } from '../../src/config/optionTable.js';
import { allChecks } from '../../profiles/index.js';
import { resolveProfileDefaults } from '../../profiles/profileDefaults.js';
import type { RunConfig } from '../../src/config/runConfig.js';
import { RUN_CONFIG_ENV, writeRunConfig } from '../../src/config/runConfigFile.js';
import { mergeRunSettings } from '../../src/config/runSettings.js';
import { validatorCacheActivity } from '../../core/validatorCache.js';
import { EXIT } from '../exitCodes.js';
import { addTableOptions, givenOptions } from '../lib/commanderOptions.js';
import { SUITES_CONFIG } from '../lib/repoPaths.js';
import { clearEarlierReport, makeOutputFolder } from '../lib/reportFolder.js';
import { runPlaywright } from '../lib/runPlaywright.js';

/** The settings `contract-gate run <args>` would act on from its arguments alone (no configuration file). */
export function parseRunOptions(args: readonly string[]): RunSettings {
  const command = addTableOptions(new Command('run'), 'run').exitOverride();
  command.parse([...args], { from: 'user' });
  return mergeRunSettings([{ values: givenOptions(command), baseDir: process.cwd() }]);
}

/** `contract-gate run`: the command line over the configuration file, then the run. */
export async function runAction(_positionals: string[], given: Record<string, unknown>): Promise<number> {
  const { settings, configFile, project } = await loadRunSettings(given);
  if (configFile) process.stdout.write(`contract-gate: configuration ${configFile}${project ? `, project ${project}` : ''}\n`);
  return runCommand(settings);
}

/** Checks the settings and decides the run configuration (contracts loaded and validated, target reachable). */
export function runConfigFor(settings: RunSettings): Promise<RunConfig> {
  return decideRunConfig(settings, resolveProfileDefaults, (line) => void process.stdout.write(`contract-gate: ${line}\n`));
}

export async function runCommand(settings: RunSettings): Promise<number> {
  // First of all: a run that cannot start (target unreachable, contract invalid) must not leave an earlier run's
  // report in its folder, to be read as its own.
  makeOutputFolder(settings.reportDir, '--report-dir');
  clearEarlierReport(settings.reportDir, { allureResults: 'set-aside' });
  const config = await runConfigFor(settings);
  const unmatched = config.grep === undefined ? undefined : await grepSelectsNothing(config);
  if (unmatched) {
    process.stderr.write(`contract-gate: ${unmatched}\n`);
    return EXIT.USAGE;
  }
  const { reportDir, seed } = config;
  process.stdout.write(`contract-gate: target ${config.target.label}; seed ${seed}${settings.seed === undefined ? ' (pass --seed to reproduce)' : ''}; report ${reportDir}\n`);
  const configPath = writeRunConfig(config);
  const runnerExit = config.runner === 'playwright' ? await runPlaywright(['test', '-c', SUITES_CONFIG], { [RUN_CONFIG_ENV]: configPath }) : await runEngine(config);
  const overrun = config.budgetMs === undefined || config.startedAt === undefined ? undefined : budgetOverrunSentence(config.budgetMs, Date.now() - config.startedAt);
  const matrixPath = join(reportDir, 'matrix.json');
  if (!existsSync(matrixPath)) {
    process.stderr.write(`contract-gate: no matrix was written to ${matrixPath} (the runner exited ${runnerExit}); see the output above\n`);
    return EXIT.USAGE;
  }
  const matrix = parseMatrixJson(readFileSync(matrixPath, 'utf8'), matrixPath);
  const exitCode = verdictOf(matrix, reportDir, runnerExit, overrun);
  if (settings.baseline) warnUnmatchedBaseline(settings.baseline, matrix);
  if (config.faults.length > 0) await warnIdleFaults(config.faults, matrix);
  return exitCode;
}

/**
 * What is wrong with a `--grep` that selects no cell of the run (on any shard), or undefined: such a run would judge
 * nothing and read as a pass.
 */
async function grepSelectsNothing(config: RunConfig): Promise<string | undefined> {
  const [{ planFor }, { grepSelection }] = await Promise.all([import('../../fixtures/runPlan.js'), import('../../fixtures/cellCatalogue.js')]);
  const { selected, total } = grepSelection(planFor(config));
  if (selected > 0) return undefined;
  return `--grep ${config.grep} selects none of the ${total} checks of this run, so nothing would be judged. It is matched against each check's title ("subject › check", e.g. "session.create › params.valid-accepted") and tags (@method:<subject> @check:<check> @area:<area>); docs/checks.md lists the checks`;
}

/**
 * The run engine in this process (fixtures/inProcessRun.ts), the preparations' embedded gateways in one child process
 * when the run is large (`placementFor`); resolves as Playwright's exit code would: 0 when every cell ended as expected.
 */
async function runEngine(config: RunConfig): Promise<number> {
  const [{ runInProcess }, { ProgressLines }] = await Promise.all([import('../../fixtures/inProcessRun.js'), import('../../src/report/progressLines.js')]);
  const progress = new ProgressLines(process.stdout, process.stdout.isTTY === true);
  const { matrix } = await runInProcess(config, { placement: 'by-size', progress, fullReport: true });
  return matrix.verdict === 'pass' && matrix.summary.notRun === 0 ? 0 : 1;
}

/**
 * A `--fault` that failed no cell of the check meant to catch it is pointed out (not failed): the run's documents may
 * not declare what it breaks (the one method it answers wrong, say), or --grep/--shard left those cells
 * out. Otherwise such a run passes and reads as if the fault had been judged.
 */
async function warnIdleFaults(faults: readonly string[], { cells }: Matrix): Promise<void> {
  const { faultNamed } = await import('../../gateway/index.js');
  for (const name of faults) {
    const fault = faultNamed(name);
    if (!fault || cells.some((cell) => cell.check === fault.check && ['fail', 'flaky', 'known-fail'].includes(cell.status))) continue;
    process.stderr.write(
      `contract-gate: warning: --fault ${name} failed no ${fault.check} cell, the check meant to catch it. What it breaks: ${fault.breaks}. This run's documents may not declare that, or --grep/--shard left its cells out (serve --list-faults lists every fault)\n`,
    );
  }
}

/** A baseline entry that names no cell of this run can never turn stale, so it is pointed out (not failed: --grep and --shard run subsets). */
function warnUnmatchedBaseline(baselinePath: string, matrix: Matrix): void {
  const present = new Set(matrix.cells.map((c) => `${c.method}\u0000${c.check}`));
  const known = allChecks();
  for (const entry of loadBaseline(baselinePath, (id) => known.has(id))) {
    if (!present.has(`${entry.method}\u0000${entry.check}`)) {
      process.stderr.write(`contract-gate: warning: baseline entry ${entry.method} × ${entry.check} matches no check of this run (renamed or removed check, or filtered out by --grep/--shard)\n`);
    }
  }
}

/** The exit code from the matrix the run wrote (the gate's source of truth) and the runner's own exit code. */
function verdictOf(matrix: Matrix, reportDir: string, runnerExit: number, budgetOverrun: string | undefined): number {
  const { summary } = matrix;
  const say = (line: string): void => void process.stdout.write(`contract-gate: ${line}\n`);
  factLines(matrix, reportDir).forEach(say);
  const cache = validatorCacheActivity();
  // A cold cache is what makes a run on a fresh CI machine slower than the same run on a laptop: said, with the cure.
  if (cache.dir !== undefined && cache.stored > 0) {
    say(`validator cache: ${cache.stored} validators compiled and kept in ${cache.dir} (${cache.loaded} loaded from it); later runs load them: keep that folder between CI jobs (docs/ci-gate.md)`);
  }
  if (budgetOverrun) say(budgetOverrun);
  gateLines(matrix, reportDir).forEach(say);
  if (matrix.verdict === 'fail' || matrix.targetDown) return EXIT.FAILED;
  if (summary.notRun > 0) {
    process.stderr.write(`contract-gate: ${summary.notRun} cell(s) did not run (the runner exited ${runnerExit}); see the output above\n`);
    return EXIT.USAGE;
  }
  return runnerExit === 0 ? EXIT.OK : EXIT.FAILED;
}
