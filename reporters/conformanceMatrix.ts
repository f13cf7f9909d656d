import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase } from '@playwright/test/reporter';
import { cellFromTags } from '../src/checks/tags.js';
import { buildMatrix, type TestAnnotationRecord, type TestRecord } from '../src/report/matrixModel.js';
import type { Matrix, MatrixRun, MatrixRuns, MatrixTraffic } from '../src/report/matrixTypes.js';
import { renderHtml } from '../src/report/renderHtml.js';
import { renderJson } from '../src/report/renderJson.js';
import { renderMarkdown } from '../src/report/renderMarkdown.js';
import { runConfigFromEnv } from '../src/config/runConfigFile.js';
import { matrixRunOf } from '../src/report/matrixRun.js';
import { attachRunFacts, attachRuns } from '../src/report/runFacts.js';
import { readLedger } from '../src/report/runsFile.js';

export interface ConformanceMatrixOptions {
  /** Report folder; wins over the run configuration's. Relative paths resolve against the working directory. */
  outputDir?: string;
  /** Run facts to print instead of reading them from the run configuration (used by shard merges). */
  run?: MatrixRun;
  /** Shard merges: the runs per method and the traffic the shards' own matrices recorded. */
  runs?: MatrixRuns;
  traffic?: MatrixTraffic;
  /** Append the Markdown report to $GITHUB_STEP_SUMMARY when that variable is set. Default true. */
  githubSummary?: boolean;
}

export const MATRIX_FILES = { json: 'matrix.json', markdown: 'matrix.md', html: 'matrix.html' } as const;

function annotationsOf(test: TestCase): TestAnnotationRecord[] {
  const last = test.results.at(-1);
  // Static annotations live on the test, runtime ones on the result; keep each once, in arrival order.
  const all = [...test.annotations, ...(last?.annotations ?? [])];
  const seen = new Set<string>();
  const kept: TestAnnotationRecord[] = [];
  for (let i = all.length - 1; i >= 0; i--) {
    const annotation = all[i];
    if (!annotation) continue;
    const key = JSON.stringify([annotation.type, annotation.description ?? null]);
    if (seen.has(key)) continue;
    seen.add(key);
    kept.unshift(annotation.description === undefined ? { type: annotation.type } : { type: annotation.type, description: annotation.description });
  }
  return kept;
}

export function testRecord(test: TestCase): TestRecord {
  const last = test.results.at(-1);
  const record: TestRecord = {
    tags: test.tags,
    outcome: test.outcome(),
    expectedStatus: test.expectedStatus,
    annotations: annotationsOf(test),
    errors: (last?.errors ?? []).map((error) => error.message ?? error.value ?? ''),
  };
  if (last) {
    record.status = last.status;
    record.durationMs = test.results.reduce((sum, result) => sum + result.duration, 0);
  }
  return record;
}

/**
 * Writes the conformance matrix (matrix.json, matrix.md, matrix.html) at the end of the run. Cells come from the
 * `@method:`/`@check:` tags, so a cell whose test never ran still shows, as not-run.
 */
export default class ConformanceMatrixReporter implements Reporter {
  private readonly options: ConformanceMatrixOptions;
  private cellTests: TestCase[] = [];

  constructor(options: ConformanceMatrixOptions = {}) {
    this.options = options;
  }

  printsToStdio(): boolean {
    return false;
  }

  onBegin(_config: FullConfig, suite: Suite): void {
    this.cellTests = suite.allTests().filter((test) => cellFromTags(test.tags) !== undefined);
  }

  async onEnd(): Promise<{ status?: FullResult['status'] } | undefined> {
    try {
      const matrix = this.build();
      this.write(matrix);
      return undefined;
    } catch (error) {
      // Playwright swallows reporter exceptions; a gate whose matrix is broken must not pass.
      process.stderr.write(`contract-gate: the conformance matrix could not be written: ${(error as Error).stack ?? String(error)}\n`);
      return { status: 'failed' };
    }
  }

  private build(): Matrix {
    const runConfig = runConfigFromEnv();
    const run = this.options.run ?? (runConfig ? matrixRunOf(runConfig) : { target: 'not set', contracts: [], seed: null });
    const matrix = buildMatrix(this.cellTests.map(testRecord), run, new Date().toISOString());
    attachRunFacts(matrix, this.outputDir(), readLedger(join(this.outputDir(), 'test-output', 'work')), runConfig?.budgetMs);
    if (this.options.traffic) matrix.traffic = this.options.traffic;
    if (this.options.runs) attachRuns(matrix, this.options.runs);
    return matrix;
  }

  private outputDir(): string {
    const dir = this.options.outputDir ?? runConfigFromEnv()?.reportDir ?? 'contract-gate-report';
    return resolve(dir);
  }

  private write(matrix: Matrix): void {
    const dir = this.outputDir();
    mkdirSync(dir, { recursive: true });
    const markdown = renderMarkdown(matrix);
    writeFileSync(join(dir, MATRIX_FILES.json), renderJson(matrix));
    writeFileSync(join(dir, MATRIX_FILES.markdown), markdown);
    writeFileSync(join(dir, MATRIX_FILES.html), renderHtml(matrix));
    const summaryFile = process.env['GITHUB_STEP_SUMMARY'];
    if (summaryFile && this.options.githubSummary !== false) appendFileSync(summaryFile, `${markdown}\n`);
  }
}
