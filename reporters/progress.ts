import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { join } from 'node:path';
import { dropWritesOnceClosed } from '../core/closedOutput.js';
import { cellFromTags, PREPARE_TAG } from '../src/checks/tags.js';
import { parallelismOf } from '../src/config/parallelism.js';
import { runConfigFromEnv } from '../src/config/runConfigFile.js';
import { readLedger } from '../src/report/runsFile.js';
import { generatedCasesEndMs, methodRunsEtaMs } from '../src/run/runEta.js';
import { classifyTest, firstLine } from '../src/report/matrixModel.js';
import { failureLineOf, ProgressLines, type ProgressStream } from '../src/report/progressLines.js';
import { testRecord } from './conformanceMatrix.js';

export { formatElapsed } from '../src/report/progressLines.js';

export interface ProgressOptions {
  /** Live single line (true) or quiet CI lines (false). Defaults to whether stdout is a terminal. */
  tty?: boolean;
  /** Where to print; defaults to process.stdout. */
  stream?: NodeJS.WritableStream & { columns?: number };
}

function labelOf(test: TestCase): string {
  const cell = cellFromTags(test.tags);
  return cell ? `${cell.method} × ${cell.check}` : test.titlePath().filter(Boolean).join(' › ');
}

/** onTestEnd fires once per attempt; only the attempt after which nothing is retried counts. */
function isFinalAttempt(test: TestCase, result: TestResult): boolean {
  return result.status === 'skipped' || result.status === 'interrupted' || result.status === test.expectedStatus || result.retry >= test.retries;
}

/** Terminal progress of a Playwright run (src/report/progressLines.ts says what it prints). */
export default class ProgressReporter implements Reporter {
  private readonly lines: ProgressLines;
  private reportDir: string | undefined;

  constructor(options: ProgressOptions = {}) {
    // The runner shares `contract-gate run`'s output: a reader that stops early must not end the run (core/closedOutput.ts).
    dropWritesOnceClosed(process.stdout);
    dropWritesOnceClosed(process.stderr);
    const stream: ProgressStream = options.stream ?? process.stdout;
    this.lines = new ProgressLines(stream, options.tty ?? process.stdout.isTTY === true);
  }

  printsToStdio(): boolean {
    return true;
  }

  onBegin(_config: FullConfig, suite: Suite): void {
    const tests = suite.allTests();
    const runConfig = runConfigFromEnv();
    this.reportDir = runConfig?.reportDir;
    const lanes = runConfig ? parallelismOf(runConfig).workers : 1;
    const workDir = this.reportDir ? join(this.reportDir, 'test-output', 'work') : undefined;
    const generatedEnd = generatedCasesEndMs(runConfig?.budgetMs, runConfig?.startedAt);
    const estimate = workDir ? (runsTotal: number, now: number) => methodRunsEtaMs(readLedger(workDir), runsTotal, lanes, now, generatedEnd) : undefined;
    this.lines.begin(tests.filter((test) => cellFromTags(test.tags)).length, tests.filter((test) => test.tags.includes(PREPARE_TAG)).length, estimate);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    if (!isFinalAttempt(test, result)) return;
    if (test.tags.includes(PREPARE_TAG)) return this.lines.runEnded();
    if (!cellFromTags(test.tags)) return;
    const { status } = classifyTest(testRecord(test));
    const errors = result.errors.map((error) => error.message ?? error.value ?? '');
    this.lines.cellEnded(status, () => ({ label: labelOf(test), line: failureLineOf(result.annotations, errors, status, this.reportDir) }));
  }

  onError(error: TestError): void {
    this.lines.error(firstLine(error.message ?? error.value ?? 'unknown error'));
  }

  onEnd(result: FullResult): void {
    this.lines.end(result.status);
  }
}
