import { join } from 'node:path';
import { ANNOTATION } from '../checks/tags.js';
import type { CellStatus } from './matrixTypes.js';
import { errorSummary, failsGate, type TestAnnotationRecord } from './matrixModel.js';

/**
 * The run's terminal progress, whichever runner feeds it (the Playwright reporter, the run engine). On a TTY: one
 * line redrawn in place (method runs, checks done/total, failures, elapsed) and the failures listed at the end.
 * Elsewhere (CI logs): one line per failure, one line per ~10% of progress, the final counts.
 */
export interface ProgressStream {
  write(text: string): unknown;
  columns?: number;
}

export interface ProgressFailure {
  /** `subject × check`. */
  readonly label: string;
  /** What broke, with the replay command when there is one. */
  readonly line: string;
}

/** How long the method runs still take, in ms, from what the ones already ended took; undefined while unknown. */
export type RunsEstimate = (runsTotal: number, nowMs: number) => number | undefined;

/** Without a terminal, a slow run says how far its method runs are at least this often. */
const QUIET_LINE_MS = 15_000;
/** An estimate shorter than this is not worth a line of its own. */
const ETA_WORTH_SAYING_MS = 30_000;
const ETA_READ_MS = 3_000;
/** An estimate under this would print as "0.0s". */
const ETA_SHOWN_FROM_MS = 50;

export function formatElapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${(ms / 1000).toFixed(1)}s`;
  return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s`;
}

/**
 * The line a long quiet stretch of method runs gets: how long they still take, when that is worth saying. Before any
 * has ended (a slow target: the first may take minutes) the estimate is projected from the valid cases made so far,
 * and says so; before any case has ended, the line says that the runs are still going.
 */
export function quietRunsLine(runsDone: number, runsTotal: number, elapsedMs: number, etaMs: number | undefined): string | undefined {
  const head = `method runs ${runsDone}/${runsTotal}, ${formatElapsed(elapsedMs)}`;
  if (etaMs === undefined) return runsDone === 0 ? `${head}, no case ended yet (the estimate comes with the first)` : undefined;
  if (etaMs < ETA_WORTH_SAYING_MS) return undefined;
  return `${head}, about ${formatElapsed(etaMs)} left${runsDone === 0 ? ' (projected from the valid cases made so far; negative cases not counted yet)' : ''}`;
}

export class ProgressLines {
  private total = 0;
  private done = 0;
  private runsTotal = 0;
  private runsDone = 0;
  private runsDecile = 0;
  private lastDecile = 0;
  private started = Date.now();
  private readonly counts = new Map<CellStatus, number>();
  private readonly failures: ProgressFailure[] = [];
  private timer: NodeJS.Timeout | undefined;
  private estimate: RunsEstimate | undefined;
  private eta: { at: number; ms: number | undefined } = { at: 0, ms: undefined };
  private lastLineAt = Date.now();

  constructor(
    private readonly stream: ProgressStream,
    private readonly tty: boolean,
  ) {}

  /** `checks` matrix cells will be judged after `runs` setup runs (one per method, the event sample). */
  begin(checks: number, runs: number, estimate?: RunsEstimate): void {
    this.total = checks;
    this.runsTotal = runs;
    this.estimate = estimate;
    this.started = Date.now();
    if (this.tty) {
      this.timer = setInterval(() => this.redraw(), 1000);
      this.timer.unref();
      this.redraw();
    } else {
      this.print(`contract-gate: running ${this.total} checks${this.runsTotal ? ` after ${this.runsTotal} method runs` : ''}`);
      if (estimate) {
        this.timer = setInterval(() => this.quietLine(), 1000);
        this.timer.unref();
      }
    }
  }

  runEnded(): void {
    this.runsDone++;
    this.eta.at = 0;
    if (this.tty) return this.redraw();
    const decile = Math.floor((10 * this.runsDone) / this.runsTotal);
    if (decile > this.runsDecile && this.runsDone < this.runsTotal) {
      this.runsDecile = decile;
      this.print(`method runs ${Math.floor((100 * this.runsDone) / this.runsTotal)}%: ${this.runsDone}/${this.runsTotal}, ${formatElapsed(Date.now() - this.started)}${this.etaText()}`);
    }
  }

  private etaText(): string {
    const eta = this.runsDone < this.runsTotal ? this.etaMs() : undefined;
    // Counted down to nothing while runs still go on: they take longer than the typical one, and "about 0.0s left"
    // would say they were done.
    return eta === undefined || eta < ETA_SHOWN_FROM_MS ? '' : `, about ${formatElapsed(eta)} left`;
  }

  /** The estimate, read at most every few seconds and counted down between. */
  private etaMs(): number | undefined {
    if (!this.estimate) return undefined;
    const now = Date.now();
    if (now - this.eta.at >= ETA_READ_MS) this.eta = { at: now, ms: this.estimate(this.runsTotal, now) };
    return this.eta.ms === undefined ? undefined : Math.max(0, this.eta.ms - (now - this.eta.at));
  }

  /** Without a terminal, a long quiet stretch of method runs gets a line (quietRunsLine). */
  private quietLine(): void {
    if (this.runsDone >= this.runsTotal || Date.now() - this.lastLineAt < QUIET_LINE_MS) return;
    const line = quietRunsLine(this.runsDone, this.runsTotal, Date.now() - this.started, this.etaMs());
    if (line) this.print(line);
  }

  /** A cell's final status; `failure` is read only when the status fails the gate. */
  cellEnded(status: CellStatus, failure: () => ProgressFailure): void {
    this.done++;
    this.counts.set(status, (this.counts.get(status) ?? 0) + 1);
    if (failsGate(status)) {
      const found = failure();
      this.failures.push(found);
      if (!this.tty) this.print(`${status === 'stale' ? 'STALE' : 'FAIL'} ${found.label}: ${found.line}`);
    }
    if (this.tty) return this.redraw();
    const decile = this.total ? Math.floor((10 * this.done) / this.total) : 10;
    if (decile > this.lastDecile && this.done < this.total) {
      this.lastDecile = decile;
      this.print(`progress ${Math.floor((100 * this.done) / this.total)}%: ${this.done}/${this.total} checks, ${this.failures.length} failing, ${formatElapsed(Date.now() - this.started)}`);
    }
  }

  error(line: string): void {
    this.print(`error: ${line}`);
  }

  /** The failures (on a TTY) and the final counts; `outcome` is the runner's own word (passed, failed, …). */
  end(outcome: string): void {
    clearInterval(this.timer);
    this.timer = undefined;
    if (this.tty) {
      this.stream.write('\r\x1b[2K');
      if (this.failures.length) {
        this.stream.write(`Failures (${this.failures.length}):\n`);
        for (const failure of this.failures) this.stream.write(`  ✗ ${failure.label}\n      ${failure.line}\n`);
      }
    }
    this.print(this.finalLine(outcome));
  }

  private finalLine(outcome: string): string {
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
    return `contract-gate: ${this.total} checks in ${formatElapsed(Date.now() - this.started)}: ${parts.join(', ')} (${outcome})`;
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

const MAX_DETAIL_CHARS = 400;

/** A failing cell's one-line detail (what broke) and, when a replay file was written, the command that re-sends it. */
export function failureLineOf(annotations: readonly TestAnnotationRecord[], errors: readonly string[], status: CellStatus, reportDir: string | undefined): string {
  const annotation = (type: string): string | undefined => annotations.find((a) => a.type === type)?.description;
  const detail = annotation(ANNOTATION.detail);
  const line =
    detail && status !== 'stale'
      ? detail.length > MAX_DETAIL_CHARS
        ? `${detail.slice(0, MAX_DETAIL_CHARS)}…`
        : detail
      : status === 'stale'
        ? 'expected to fail (baseline) but passed: remove the baseline entry'
        : (errorSummary(errors) ?? 'failed');
  const replay = annotation(ANNOTATION.replayFile);
  return replay ? `${line}\n      replay: npx contract-gate replay ${reportDir ? join(reportDir, replay) : replay}` : line;
}
