/**
 * The tag and annotation vocabulary shared by the suites (which write it) and the reporters (which read it).
 * Tags are static, so the matrix knows every cell before any test runs.
 */
export const METHOD_TAG_PREFIX = '@method:';
export const CHECK_TAG_PREFIX = '@check:';
export const AREA_TAG_PREFIX = '@area:';
/** The setup project's tests (one run per method, the event sample): not matrix cells. */
export const PREPARE_TAG = '@prepare';

/** Runtime annotations a test adds; the matrix reporter reads them from the final result. */
export const ANNOTATION = {
  /** Verdict detail for the cell (one line). */
  detail: 'contract-gate.detail',
  /** The test found nothing to check (e.g. no open model in params): the cell is n/a with this reason. */
  notApplicable: 'contract-gate.n/a',
  /** Methods that answered at least one success, comma separated (feeds coverage). */
  reached: 'contract-gate.reached',
  /** Relative path of the replay file written for a failure. */
  replayFile: 'contract-gate.replay-file',
  /** Relative path of the transcript written for this test. */
  transcriptFile: 'contract-gate.transcript-file',
  /** Relative path of a file the cell attached (a screenshot, a table); one annotation per file. */
  attachmentFile: 'contract-gate.attachment-file',
  /** Baseline reason when the cell is an expected failure. */
  baseline: 'contract-gate.baseline',
  seed: 'contract-gate.seed',
  /** The cell was not judged (the target went down or became slow before it): not-run with this reason. */
  notRun: 'contract-gate.not-run',
  /** The cell failed, then passed on a retry (`--retries`): flaky with this detail. */
  flaky: 'contract-gate.flaky',
  /** Attempts the cell took when it was retried. */
  attempts: 'contract-gate.attempts',
} as const;

/** Names a cell reports as reached, by kind: plain for methods, `event:` and `server-request:` prefixed for the others. */
export const REACHED_PREFIX = { event: 'event:', serverRequest: 'server-request:' } as const;

/** The title of a cell's test: `subject › check`. */
export function cellTitle(subject: string, check: string): string {
  return `${subject} › ${check}`;
}

/** The static tags of a cell's test: its subject, its check and the check's area. */
export function cellTags(subject: string, check: string, area: string): string[] {
  return [methodTag(subject), checkTag(check), `${AREA_TAG_PREFIX}${area}`];
}

export function methodTag(method: string): string {
  return `${METHOD_TAG_PREFIX}${method}`;
}

export function checkTag(check: string): string {
  return `${CHECK_TAG_PREFIX}${check}`;
}

export interface CellKey {
  method: string;
  check: string;
}

/** Reads `@method:` and `@check:` from a test's tags; undefined when the test is not a matrix cell. */
export function cellFromTags(tags: readonly string[]): CellKey | undefined {
  const method = tags.find((tag) => tag.startsWith(METHOD_TAG_PREFIX))?.slice(METHOD_TAG_PREFIX.length);
  const check = tags.find((tag) => tag.startsWith(CHECK_TAG_PREFIX))?.slice(CHECK_TAG_PREFIX.length);
  return method && check ? { method, check } : undefined;
}
