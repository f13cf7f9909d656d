import { CHECKS } from '../checks/checkCatalogue.js';
import { addEvidence, type Evidence, evidenceFromAnnotations, isEvidenced } from '../checks/evidence.js';
import { ANNOTATION, cellFromTags, REACHED_PREFIX } from '../checks/tags.js';
import { coverageShortfall, nothingJudged } from './coverageGate.js';
import type { CellStatus, Matrix, MatrixCell, KindCoverage, MatrixCoverage, MatrixRun, MatrixSummary } from './matrixTypes.js';

export type TestOutcome = 'skipped' | 'expected' | 'unexpected' | 'flaky';
export type TestRunStatus = 'passed' | 'failed' | 'timedOut' | 'skipped' | 'interrupted';

export interface TestAnnotationRecord {
  type: string;
  description?: string;
}

/** One test as the runner saw it at the end of the run, copied out of Playwright's objects. */
export interface TestRecord {
  tags: readonly string[];
  /** `test.outcome()`, which already folds retries into one answer. */
  outcome: TestOutcome;
  expectedStatus: TestRunStatus;
  /** Static and runtime annotations; when a type repeats, the last one counts. */
  annotations: readonly TestAnnotationRecord[];
  /** Error messages of the final attempt. */
  errors: readonly string[];
  /** Status of the final attempt; absent when the test never ran. */
  status?: TestRunStatus;
  /** Time the test took, its attempts included; absent when it never ran or its runner does not time it (the proxy). */
  durationMs?: number;
}

export interface TestVerdict {
  status: CellStatus;
  detail?: string;
  transcript?: string;
  replay?: string;
  attachments?: string[];
  evidence?: Evidence;
  attempts?: number;
}

/**
 * Severity used when several tests share a cell; the highest wins.
 * - stale and fail fail the gate. stale ranks first because a stale entry is what would hide this cell's
 *   failures on the next run: the baseline must be fixed before the cell can report honestly.
 * - flaky (failed, then passed on a retry) is never a pass: a target that answers the same request two ways is
 *   not conformant. It fails the gate under --fail-on-flaky only (see failsGate).
 * - not-run is next: a gap means "unknown", which must never be covered by a known failure or a pass.
 * - known-fail is a real, accepted defect, so it outranks pass.
 * - n/a ranks last: "nothing to check here" says less than any result.
 */
const SEVERITY: Record<CellStatus, number> = { stale: 6, fail: 5, flaky: 4, 'not-run': 3, 'known-fail': 2, pass: 1, 'n/a': 0 };

export function statusSeverity(status: CellStatus): number {
  return SEVERITY[status];
}

export function worseStatus(a: CellStatus, b: CellStatus): CellStatus {
  return SEVERITY[b] > SEVERITY[a] ? b : a;
}

/**
 * Whether a cell of this status fails the gate. A flaky cell fails it only under `--fail-on-flaky`; reports that
 * list what needs looking at (`flakyFails` left at true) show it beside the failures either way.
 */
export function failsGate(status: CellStatus, flakyFails = true): boolean {
  return status === 'fail' || status === 'stale' || (status === 'flaky' && flakyFails);
}

const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;
const MAX_DETAIL = 300;

/** First non-empty line of a message, without terminal colours, capped for one table cell. */
export function firstLine(text: string): string {
  const line = text.replace(ANSI, '').split('\n').map((part) => part.trim()).find((part) => part.length > 0) ?? '';
  return line.length > MAX_DETAIL ? `${line.slice(0, MAX_DETAIL - 1)}…` : line;
}

function note(record: TestRecord, type: string): string | undefined {
  for (let i = record.annotations.length - 1; i >= 0; i--) {
    const annotation = record.annotations[i];
    if (annotation?.type === type) return annotation.description?.trim() || undefined;
  }
  return undefined;
}

function hasNote(record: TestRecord, type: string): boolean {
  return record.annotations.some((annotation) => annotation.type === type);
}

/** Parts of a cell's detail, in order, as the matrix writes them. */
export function joinDetail(...parts: Array<string | undefined>): string | undefined {
  const kept = parts.filter((part): part is string => !!part);
  return kept.length ? kept.join(' · ') : undefined;
}

/** First meaningful line of a list of error messages, without the generic `Error: ` prefix. */
export function errorSummary(messages: readonly string[]): string | undefined {
  return messages.map((message) => firstLine(message).replace(/^Error:\s*/, '')).find((line) => line.length > 0);
}

function errorLine(record: TestRecord): string | undefined {
  const first = errorSummary(record.errors);
  if (first) return first;
  return record.status === 'timedOut' ? 'timed out' : undefined;
}

function classify(record: TestRecord): { status: CellStatus; detail?: string } {
  const detail = note(record, ANNOTATION.detail);
  const baselineReason = note(record, ANNOTATION.baseline) ?? note(record, 'fail');
  const skipReason = note(record, ANNOTATION.notApplicable) ?? note(record, 'skip') ?? note(record, 'fixme');
  if (record.status === undefined) {
    // A statically skipped test is known to be n/a even if the runner never reported it.
    if (record.expectedStatus === 'skipped') return { status: 'n/a', detail: skipReason ?? 'skipped' };
    return { status: 'not-run', detail: 'the test did not run' };
  }
  if (record.status === 'interrupted') return { status: 'not-run', detail: 'interrupted before it finished' };
  const notRun = note(record, ANNOTATION.notRun);
  if (notRun && record.outcome === 'skipped') return { status: 'not-run', detail: notRun };
  const expectsFailure = record.expectedStatus === 'failed';
  switch (record.outcome) {
    case 'skipped':
      return { status: 'n/a', detail: skipReason ?? 'skipped' };
    case 'expected':
      if (expectsFailure) return { status: 'known-fail', detail: joinDetail(baselineReason ?? 'expected failure', detail ?? errorLine(record)) };
      if (hasNote(record, ANNOTATION.notApplicable)) return { status: 'n/a', detail: skipReason };
      if (hasNote(record, ANNOTATION.flaky)) return { status: 'flaky', detail: note(record, ANNOTATION.flaky) ?? detail };
      return { status: 'pass', detail };
    case 'unexpected':
      // A baselined cell that passed only on a retry still failed once: the known failure stands.
      if (expectsFailure && hasNote(record, ANNOTATION.flaky)) return { status: 'known-fail', detail: joinDetail(baselineReason, note(record, ANNOTATION.flaky)) };
      if (expectsFailure) {
        return {
          status: 'stale',
          detail: joinDetail('baseline entry passes now: remove it from the baseline', baselineReason && `reason was: ${baselineReason}`),
        };
      }
      return { status: 'fail', detail: detail ?? errorLine(record) ?? 'failed' };
    case 'flaky':
      // A baselined check that failed only on some attempts is still a known failure: removing the entry
      // would turn it into a flaky gate failure, so it must not be reported as passing.
      if (expectsFailure) return { status: 'known-fail', detail: joinDetail(baselineReason, 'flaky: passed on one attempt') };
      return { status: 'flaky', detail: joinDetail('passed only on a retry', detail, errorSummary(record.errors)) };
  }
}

/** Maps one test to its cell state; annotations supply the detail, transcript and replay links. */
export function classifyTest(record: TestRecord): TestVerdict {
  const verdict: TestVerdict = classify(record);
  const transcript = note(record, ANNOTATION.transcriptFile);
  const replay = note(record, ANNOTATION.replayFile);
  if (transcript) verdict.transcript = transcript;
  if (replay) verdict.replay = replay;
  const attachments = [...new Set(record.annotations.filter((a) => a.type === ANNOTATION.attachmentFile && a.description).map((a) => a.description as string))];
  if (attachments.length > 0) verdict.attachments = attachments;
  const evidence = evidenceFromAnnotations(record.annotations);
  if (evidence) verdict.evidence = evidence;
  const attempts = Number(note(record, ANNOTATION.attempts));
  if (Number.isInteger(attempts) && attempts > 1) verdict.attempts = attempts;
  if (verdict.detail === undefined) delete verdict.detail;
  return verdict;
}

const CHECK_ORDER = new Map<string, number>(CHECKS.map((check, index) => [check.id, index]));

function compareCells(a: MatrixCell, b: MatrixCell): number {
  if (a.method !== b.method) return a.method < b.method ? -1 : 1;
  const orderA = CHECK_ORDER.get(a.check) ?? CHECK_ORDER.size;
  const orderB = CHECK_ORDER.get(b.check) ?? CHECK_ORDER.size;
  if (orderA !== orderB) return orderA - orderB;
  return a.check < b.check ? -1 : a.check > b.check ? 1 : 0;
}

/** Column order used by every renderer: catalogue order, then unknown ids alphabetically. */
export function sortChecks(checks: Iterable<string>): string[] {
  return [...new Set(checks)].sort((a, b) => compareCells({ method: '', check: a, status: 'pass' }, { method: '', check: b, status: 'pass' }));
}

interface CellAccumulator {
  cell: MatrixCell;
  worstCount: number;
  /** The cell's tests' time, whichever verdict wins; undefined while none of them was timed. */
  durationMs: number | undefined;
}

function mergeIntoCell(acc: CellAccumulator, verdict: TestVerdict): void {
  const current = acc.cell.status;
  const evidence = acc.cell.evidence && verdict.evidence ? addEvidence(acc.cell.evidence, verdict.evidence) : (acc.cell.evidence ?? verdict.evidence);
  mergeVerdict(acc, verdict, current);
  // Every test of a cell observed for it, whichever verdict wins.
  if (evidence) acc.cell.evidence = evidence;
}

function mergeVerdict(acc: CellAccumulator, verdict: TestVerdict, current: CellStatus): void {
  if (SEVERITY[verdict.status] > SEVERITY[current]) {
    acc.cell = { method: acc.cell.method, check: acc.cell.check, ...verdict };
    acc.worstCount = 1;
    return;
  }
  if (verdict.status !== current) return;
  acc.worstCount++;
  for (const field of ['detail', 'transcript', 'replay'] as const) {
    const value = verdict[field];
    if (acc.cell[field] === undefined && value !== undefined) acc.cell[field] = value;
  }
  if (verdict.attempts !== undefined) acc.cell.attempts = Math.max(acc.cell.attempts ?? 0, verdict.attempts);
  if (verdict.attachments) acc.cell.attachments = [...new Set([...(acc.cell.attachments ?? []), ...verdict.attachments])];
}

export const PARAMS_VALID_ACCEPTED = 'params.valid-accepted';

function reachedNames(records: readonly TestRecord[]): Set<string> {
  const reached = new Set<string>();
  for (const record of records) {
    for (const annotation of record.annotations) {
      if (annotation.type !== ANNOTATION.reached) continue;
      for (const name of (annotation.description ?? '').split(',')) reached.add(name.trim());
    }
  }
  return reached;
}

const sorted = (values: Iterable<string>): string[] => [...values].sort();

function kindCoverage(cells: readonly MatrixCell[], check: string, reached: ReadonlySet<string>, prefix: string): KindCoverage {
  const subjects = new Set(cells.filter((cell) => cell.check === check).map((cell) => cell.method));
  const seen = [...subjects].filter((name) => reached.has(`${prefix}${name}`));
  return { total: subjects.size, seen: sorted(seen), unseen: sorted([...subjects].filter((name) => !seen.includes(name))) };
}

function coverageOf(cells: readonly MatrixCell[], records: readonly TestRecord[]): MatrixCoverage {
  const reached = reachedNames(records);
  const methods = kindCoverage(cells, PARAMS_VALID_ACCEPTED, reached, '');
  return {
    methods: methods.total,
    reached: methods.seen,
    unreached: methods.unseen,
    events: kindCoverage(cells, 'event.payload-schema', reached, REACHED_PREFIX.event),
    serverRequests: kindCoverage(cells, 'server-request.envelope', reached, REACHED_PREFIX.serverRequest),
  };
}

export function summarize(cells: readonly MatrixCell[]): MatrixSummary {
  const summary: MatrixSummary = { pass: 0, fail: 0, knownFail: 0, stale: 0, na: 0, notRun: 0, flaky: 0, passWithoutEvidence: 0 };
  const key: Record<CellStatus, keyof MatrixSummary> = { pass: 'pass', fail: 'fail', 'known-fail': 'knownFail', stale: 'stale', 'n/a': 'na', 'not-run': 'notRun', flaky: 'flaky' };
  for (const cell of cells) summary[key[cell.status]] = (summary[key[cell.status]] ?? 0) + 1;
  summary.passWithoutEvidence = cells.filter((cell) => cell.status === 'pass' && !isEvidenced(cell.evidence)).length;
  return summary;
}

/** Builds the matrix from every test of the run. Tests without `@method:`/`@check:` tags are ignored. */
export function buildMatrix(records: readonly TestRecord[], run: MatrixRun, generatedAt: string): Matrix {
  const byCell = new Map<string, CellAccumulator>();
  for (const record of records) {
    const key = cellFromTags(record.tags);
    if (!key) continue;
    const verdict = classifyTest(record);
    const id = JSON.stringify([key.method, key.check]);
    let acc = byCell.get(id);
    if (acc) mergeIntoCell(acc, verdict);
    else byCell.set(id, (acc = { cell: { method: key.method, check: key.check, ...verdict }, worstCount: 1, durationMs: undefined }));
    if (record.durationMs !== undefined) acc.durationMs = (acc.durationMs ?? 0) + record.durationMs;
  }
  const cells = [...byCell.values()].map(({ cell, worstCount, durationMs }) => {
    if (worstCount > 1 && cell.status !== 'pass' && cell.status !== 'n/a') cell.detail = joinDetail(cell.detail, `${worstCount} tests`);
    if (durationMs !== undefined) cell.durationMs = durationMs;
    return cell;
  });
  cells.sort(compareCells);
  const summary = summarize(cells);
  const coverage = coverageOf(cells, records);
  const cellsFail = cells.some((cell) => failsGate(cell.status, run.failOnFlaky === true));
  const matrix: Matrix = {
    target: run.target,
    contracts: run.contracts.map((contract) => ({ ...contract })),
    seed: run.seed,
    generatedAt,
    verdict: cellsFail || coverageShortfall({ ...run, coverage }) || nothingJudged({ ...run, cells }) ? 'fail' : 'pass',
    summary,
    cells,
    coverage,
  };
  if (run.shard !== undefined) matrix.shard = run.shard;
  if (run.failOnFlaky !== undefined) matrix.failOnFlaky = run.failOnFlaky;
  if (run.minCoverage !== undefined) matrix.minCoverage = run.minCoverage;
  return matrix;
}
