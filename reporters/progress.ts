import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { join } from 'node:path';
import { ANNOTATION, cellFromTags, PREPARE_TAG } from '../src/checks/tags.js';
import { parallelismOf } from '../src/config/parallelism.js';
import { runConfigFromEnv } from '../src/config/runConfigFile.js';
import { readLedger } from '../src/report/runsFile.js';
import { methodRunsEtaMs } from '../src/run/runEta.js';
import { classifyTest, errorSummary, failsGate, firstLine } from '../src/report/matrixModel.js';
import type { CellStatus } from '../src/report/matrixTypes.js';
import { testRecord } from './conformanceMatrix.js';

export interface ProgressOptions {
  /** Live single line (true) or quiet CI lines (false). Defaults to whether stdout is a terminal. */
  tty?: boolean;
  /** Where to print; defaults to process.stdout. */
  stream?: NodeJS.WritableStream & { columns?: number };
}

const MAX_DETAIL_CHARS = 400;
/** Without a terminal, a slow run says how far its method runs are at least this often. */
const QUIET_LINE_MS = 15_000;
/** An estimate shorter than this is not worth a line of its own. */
const ETA_WORTH_SAYING_MS = 30_000;
const ETA_READ_MS = 3_000;

/** The cell's one-line detail (what broke) and, when a replay file was written, the command that re-sends it. */
function failureLine(result: TestResult, status: CellStatus, reportDir: string | undefined): string {
  const annotation = (type: string): string | undefined => result.annotations.find((a) => a.type === type)?.description;
  const detail = annotation(ANNOTATION.detail);
  const line = detail && status !== 'stale' ? (detail.length > MAX_DETAIL_CHARS ? `${detail.slice(0, MAX_DETAIL_CHARS)}…` : detail) : errorLine(result.errors, status);
  const replay = annotation(ANNOTATION.replayFile);
  return replay ? `${line}\n      replay: npx contract-gate replay ${reportDir ? join(reportDir, replay) : replay}` : line;
}

interface Failure {
  label: string;
  line: string;
}

export function formatElapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${(ms / 1000).toFixed(1)}s`;
  return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s`;
}

function labelOf(test: TestCase): string {
  const cell = cellFromTags(test.tags);
  return cell ? `${cell.method} × ${cell.check}` : test.titlePath().filter(Boolean).join(' › ');
}

/** onTestEnd fires once per attempt; only the attempt after which nothing is retried counts. */
function isFinalAttempt(test: TestCase, result: TestResult): boolean {
  return result.status === 'skipped' || result.status === 'interrupted' || result.status === test.expectedStatus || result.retry >= test.retries;
}

function errorLine(errors: readonly TestError[], status: CellStatus): string {
  const message = errorSummary(errors.map((error) => error.message ?? error.value ?? ''));
  if (status === 'stale') return 'expected to fail (baseline) but passed: remove the baseline entry';
  return message ?? 'failed';
}

/**
 * Terminal progress. On a TTY: one line redrawn in place (checks done/total, failures, elapsed) and the failures
 * listed at the end. Elsewhere (CI logs): one line per failure, one line per ~10% of progress, the final counts.
 */
export default class ProgressReporter implements Reporter {
  private readonly stream: NodeJS.WritableStream & { columns?: number };
  private readonly tty: boolean;
  private total = 0;
  private done = 0;
  /** Setup tests (`@prepare`): one run per method and the event sample, before the cells that judge them. */
  private runsTotal = 0;
  private runsDone = 0;
  private runsDecile = 0;
  private reportDir: string | undefined;
  private lanes = 1;
  private lastLineAt = Date.now();
  private eta: { at: number; ms: number | undefined } = { at: 0, ms: undefined };
  private started = Date.now();
  private lastDecile = 0;
  private readonly counts = new Map<CellStatus, number>();
  private readonly failures: Failure[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(options: ProgressOptions = {}) {
    this.stream = options.stream ?? process.stdout;
    this.tty = options.tty ?? process.stdout.isTTY === true;
  }

  printsToStdio(): boolean {
    return true;
  }

  onBegin(_config: FullConfig, suite: Suite): void {
    const tests = suite.allTests();
    this.total = tests.filter((test) => cellFromTags(test.tags)).length;
    this.runsTotal = tests.filter((test) => test.tags.includes(PREPARE_TAG)).length;
    const runConfig = runConfigFromEnv();
    this.reportDir = runConfig?.reportDir;
    if (runConfig) this.lanes = parallelismOf(runConfig).workers;
    this.started = Date.now();
    if (this.tty) {
      this.timer = setInterval(() => this.redraw(), 1000);
      this.timer.unref();
      this.redraw();
    } else {
      this.print(`contract-gate: running ${this.total} checks${this.runsTotal ? ` after ${this.runsTotal} method runs` : ''}`);
      this.timer = setInterval(() => this.quietLine(), 1000);
      this.timer.unref();
    }
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    if (!isFinalAttempt(test, result)) return;
    if (test.tags.includes(PREPARE_TAG)) return this.runEnded();
    if (!cellFromTags(test.tags)) return;
    this.done++;
    const { status } = classifyTest(testRecord(test));
    this.counts.set(status, (this.counts.get(status) ?? 0) + 1);
    if (failsGate(status)) {
      const failure = { label: labelOf(test), line: failureLine(result, status, this.reportDir) };
      this.failures.push(failure);
      if (!this.tty) this.print(`${status === 'stale' ? 'STALE' : 'FAIL'} ${failure.label}: ${failure.line}`);
    }
    if (this.tty) return this.redraw();
    const decile = this.total ? Math.floor((10 * this.done) / this.total) : 10;
    if (decile > this.lastDecile && this.done < this.total) {
      this.lastDecile = decile;
      this.print(`progress ${Math.floor((100 * this.done) / this.total)}%: ${this.done}/${this.total} checks, ${this.failures.length} failing, ${formatElapsed(Date.now() - this.started)}`);
    }
  }

  private runEnded(): void {
    this.runsDone++;
    this.eta.at = 0;
    if (this.tty) return this.redraw();
    const decile = Math.floor((10 * this.runsDone) / this.runsTotal);
    if (decile > this.runsDecile && this.runsDone < this.runsTotal) {
      this.runsDecile = decile;
      this.print(`method runs ${Math.floor((100 * this.runsDone) / this.runsTotal)}%: ${this.runsDone}/${this.runsTotal}, ${formatElapsed(Date.now() - this.started)}${this.etaText()}`);
    }
  }

  /** `, about 2m 10s left` while method runs go on and the ledger has measured one (src/run/runEta.ts). */
  private etaText(): string {
    const eta = this.runsDone < this.runsTotal ? this.etaMs() : undefined;
    return eta === undefined ? '' : `, about ${formatElapsed(eta)} left`;
  }

  /** The estimate, read from the ledger at most every few seconds (one file per method) and counted down between. */
  private etaMs(): number | undefined {
    if (!this.reportDir) return undefined;
    const now = Date.now();
    if (now - this.eta.at >= ETA_READ_MS) this.eta = { at: now, ms: methodRunsEtaMs(readLedger(join(this.reportDir, 'test-output', 'work')), this.runsTotal, this.lanes, now) };
    return this.eta.ms === undefined ? undefined : Math.max(0, this.eta.ms - (now - this.eta.at));
  }

  /** A run whose method runs are slow says where it is and how long is left, when no line said it for a while. */
  private quietLine(): void {
    if (this.runsDone >= this.runsTotal || Date.now() - this.lastLineAt < QUIET_LINE_MS) return;
    const eta = this.etaMs();
    if (eta === undefined || eta < ETA_WORTH_SAYING_MS) return;
    this.print(`method runs ${this.runsDone}/${this.runsTotal}, ${formatElapsed(Date.now() - this.started)}, about ${formatElapsed(eta)} left`);
  }

  onError(error: TestError): void {
    this.print(`error: ${firstLine(error.message ?? error.value ?? 'unknown error')}`);
  }

  onEnd(result: FullResult): void {
    clearInterval(this.timer);
    this.timer = undefined;
    if (this.tty) {
      this.stream.write('\r\x1b[2K');
      if (this.failures.length) {
        this.stream.write(`Failures (${this.failures.length}):\n`);
        for (const failure of this.failures) this.stream.write(`  ✗ ${failure.label}\n      ${failure.line}\n`);
      }
    }
    this.print(this.finalLine(result));
  }

  private finalLine(result: FullResult): string {
    const count = (status: CellStatus): number => this.counts.get(status) ?? 0;
    const parts = [
      `${count('pass')} passed`,
      `${count('fail')} failed`,
      ...(count('stale') ? [`${count('stale')} stale baseline`] : []),
      ...(count('known-fail') ? [`${count('known-fail')} known`] : []),
      ...(count('n/a') ? [`${count('n/a')} n/a`] : []),
      ...(count('flaky') ? [`${count('flaky')} flaky`] : []),
      ...(count('not-run') ? [`${count('not-run')} not run`] : []),
      ...(this.total > this.done ? [`${this.total - this.done} did not run`] : []),
    ];
    return `contract-gate: ${this.total} checks in ${formatElapsed(Date.now() - this.started)}: ${parts.join(', ')} (${result.status})`;
  }

  private redraw(): void {
    const runs = this.runsDone < this.runsTotal ? `${this.runsDone}/${this.runsTotal} method runs${this.etaText().replace(', ', ' · ')} · ` : '';
    const line = `contract-gate  ${runs}${this.done}/${this.total} checks · ${this.failures.length} failing · ${formatElapsed(Date.now() - this.started)}`;
    const width = this.stream.columns ?? 120;
    this.stream.write(`\r\x1b[2K${line.length > width - 1 ? line.slice(0, width - 1) : line}`);
  }

  private print(line: string): void {
    this.lastLineAt = Date.now();
    // On a TTY the live line is cleared first so that a message never lands in the middle of it.
    this.stream.write(`${this.tty ? '\r\x1b[2K' : ''}${line}\n`);
    if (this.tty && this.timer) this.redraw();
  }
}
