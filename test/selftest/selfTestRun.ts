import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseMatrixJson } from '../../src/report/renderJson.js';
import type { MatrixCell } from '../../src/report/matrixTypes.js';
import { parseRunOptions, runConfigFor } from '../../cli/commands/run.js';
import { type InProcessRunOptions, runInProcess } from '../../fixtures/inProcessRun.js';
import { replayAction } from '../../cli/commands/replay.js';
import { EXIT } from '../../cli/exitCodes.js';
import { withDefaults } from '../../cli/lib/commanderOptions.js';
import { type CliResult, runCli } from '../unit/helpers/cliRunner.js';
import { type Cell, cellKey, type FaultCase } from './faultExpectations.js';

/** Every self-test run uses the same seed and a small valid phase: the faults are deterministic, not found by luck. */
export const SELFTEST_RUN_ARGS = ['--seed', '1', '--runs', '5', '--workers', '1'];
/** The expectations are written for the session-lifecycle slice unless a case names its own contract. */
export const SELFTEST_CONTRACT = ['--contract', 'profiles/hermes/contracts/session-lifecycle.openrpc.json'];

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The `@method:` tag of a matrix row as a grep alternative that does not also match longer names. */
const subjectTag = (subject: string): string => `@method:${escapeRegExp(subject)}(?=\\s|$)`;

/** Matrix rows judged by the event checks: all of them run together (they share one event sample). */
const EVENT_AREA = '@area:event';

/**
 * The grep of a fault case, derived from its expectation: every row that is expected to fail (all checks of an
 * affected method, all cells of an affected scenario family or of `(connection)`), every event cell when an event
 * check is expected, and the rows the case names in `alsoRun`.
 */
export function grepFor(faultCase: FaultCase): string {
  const parts = new Set<string>();
  for (const cell of faultCase.failing) parts.add(cell.check.startsWith('event.') ? EVENT_AREA : subjectTag(cell.subject));
  for (const subject of faultCase.alsoRun ?? []) parts.add(subject === EVENT_AREA ? EVENT_AREA : subjectTag(subject));
  return [...parts].join('|');
}

export interface CaseRun {
  /** The CLI's exit code; undefined for an in-process run, which has none. */
  readonly code: number | undefined;
  readonly stdout: string;
  readonly stderr: string;
  readonly reportDir: string;
  readonly cells: readonly MatrixCell[];
  /** Cells that failed, as `subject × check`. */
  readonly failing: readonly string[];
  /** Cells that were declared but never ran (a harness problem, never acceptable here). */
  readonly notRun: readonly string[];
  readonly elapsedMs: number;
}

/** The `contract-gate run` arguments of a case (`grep: undefined` runs everything). */
export function caseArgs(faultCase: FaultCase | undefined, reportDir: string, grep: string | undefined, extra: readonly string[] = []): string[] {
  // The clean run is the whole default run (the full document): every check, server requests included.
  const named = [...extra, ...(faultCase?.args ?? [])].includes('--contract');
  const contract = !faultCase || named ? [] : SELFTEST_CONTRACT;
  return [...SELFTEST_RUN_ARGS, ...contract, ...extra, '--report-dir', reportDir, ...(faultCase ? ['--fault', faultCase.fault, ...(faultCase.args ?? [])] : []), ...(grep ? ['--grep', grep] : [])];
}

const keyOf = (cell: MatrixCell): string => cellKey({ subject: cell.method, check: cell.check as Cell['check'] });

function caseRunOf(cells: readonly MatrixCell[], facts: Pick<CaseRun, 'code' | 'stdout' | 'stderr' | 'reportDir' | 'elapsedMs'>): CaseRun {
  return {
    ...facts,
    cells,
    failing: cells.filter((cell) => cell.status === 'fail').map(keyOf).sort(),
    notRun: cells.filter((cell) => cell.status === 'not-run').map(keyOf).sort(),
  };
}

/** `contract-gate run` with the case's fault, grep and arguments, in a child process through Playwright. */
export async function runCase(faultCase: FaultCase | undefined, reportDir: string, grep: string | undefined, extra: readonly string[] = []): Promise<CaseRun> {
  const started = Date.now();
  const result = await runCli(['run', ...caseArgs(faultCase, reportDir, grep, extra)], {}, 240_000);
  const matrixPath = join(reportDir, 'matrix.json');
  const cells = existsSync(matrixPath) ? parseMatrixJson(readFileSync(matrixPath, 'utf8'), matrixPath).cells : [];
  return caseRunOf(cells, { ...result, reportDir, elapsedMs: Date.now() - started });
}

/**
 * The same run in this process: the CLI's options and run configuration, the in-process runner instead of Playwright.
 * `engine` sets the runner's own options (lanes, where the method runs' gateways run); by default, the runner's.
 */
export async function runCaseInProcess(faultCase: FaultCase | undefined, reportDir: string, grep: string | undefined, extra: readonly string[] = [], engine: InProcessRunOptions = {}): Promise<CaseRun> {
  const started = Date.now();
  rmSync(reportDir, { recursive: true, force: true });
  const config = await runConfigFor(parseRunOptions(caseArgs(faultCase, reportDir, grep, extra)));
  const { matrix } = await runInProcess(config, engine);
  return caseRunOf(matrix.cells, { code: undefined, stdout: '', stderr: '', reportDir, elapsedMs: Date.now() - started });
}

/**
 * `contract-gate replay <file>` in this process, with the command's defaults: its output collected, a usage error
 * (which the command line prints and exits 2 on) as stderr and exit code 2.
 */
export async function replayInProcess(file: string): Promise<CliResult> {
  let stdout = '';
  try {
    const code = await replayAction([file], withDefaults('replay', {}), (text) => (stdout += text));
    return { code, stdout, stderr: '' };
  } catch (error) {
    return { code: EXIT.USAGE, stdout, stderr: String(error instanceof Error ? (error.stack ?? error.message) : error) };
  }
}

/** Runs jobs with at most `limit` at a time, in the order they were queued. */
export class JobPool {
  private running = 0;
  private readonly queue: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  run<T>(job: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = (): void => {
        this.running++;
        job()
          .then(resolve, reject)
          .finally(() => {
            this.running--;
            this.queue.shift()?.();
          });
      };
      if (this.running < this.limit) start();
      else this.queue.push(start);
    });
  }
}
