import type { Evidence } from '../checks/evidence.js';

/**
 * The conformance matrix as written to `matrix.json`. The format is public: CI scripts and dashboards read it.
 * Add fields only as optional ones; never rename.
 */
export type CellStatus = 'pass' | 'fail' | 'known-fail' | 'stale' | 'n/a' | 'not-run' | 'flaky';

export const CELL_STATUSES: readonly CellStatus[] = ['pass', 'fail', 'known-fail', 'stale', 'n/a', 'not-run', 'flaky'];

export interface MatrixCell {
  /** The subject: a contract method, an event name or a scenario name (the `@method:` tag). */
  method: string;
  /** A check id from the catalogue (the `@check:` tag). */
  check: string;
  status: CellStatus;
  /** One line that says why (error, baseline reason, n/a reason, flaky note). */
  detail?: string;
  /** Transcript file, relative to the report folder. */
  transcript?: string;
  /** Replay file, relative to the report folder; `npx contract-gate replay <file>` reproduces the failure. */
  replay?: string;
  /** Files the cell attached (a failing browser lane's screenshot, the predicted-vs-observed table), relative to the report folder. */
  attachments?: string[];
  /** What the cell observed (summed over the tests of the cell); absent in matrices written before it existed. */
  evidence?: Evidence;
  /** Attempts made when the cell was retried (`--retries`): 2 for a cell that failed once and then passed. */
  attempts?: number;
  /** Time its tests took, retries included; absent in matrices written before it existed and where nothing timed them. */
  durationMs?: number;
}

export interface MatrixContract {
  title: string;
  version: string;
  path: string;
}

export interface MatrixSummary {
  pass: number;
  fail: number;
  knownFail: number;
  stale: number;
  na: number;
  notRun: number;
  /** Cells that passed only on a retry (absent in matrices written before the status existed). */
  flaky?: number;
  /** Passing cells that observed nothing their rule judges (see src/checks/evidence.ts): must be 0. */
  passWithoutEvidence?: number;
}

/** The target stopped accepting connections during the run (written once, by the cell that saw it first). */
export interface TargetDown {
  subject: string;
  check: string;
  /** The last frame(s) the cell sent before the target went away, redacted and clipped. */
  frame: string;
  /** Report-relative replay file that sends those frames to a fresh target. */
  replay?: string;
  /** ISO 8601 time at which the target was found down. */
  at: string;
  /** `down`: no longer accepts connections; `slow`: stopped answering a cheap probe within the drain limit. */
  kind?: 'down' | 'slow';
}

/** What the run sent, as seen by its flow control (added up over the workers). */
export interface MatrixTraffic {
  requestsSent: number;
  /** The most requests one worker had outstanding at once (each worker's cap is its share of --max-in-flight). */
  peakInFlight: number;
  timeouts: number;
}

/** Valid-phase runs per method, made vs asked: what a time budget (or a method's time limit) cut. */
export interface MatrixRuns {
  /** The run's `--budget`, when it had one. */
  budgetMs?: number;
  /** Methods that made fewer runs than asked. */
  cut: number;
  /** Sorted by method; `perRunMs` is the measured time of one valid case, when the run measured it. */
  methods: Array<{ method: string; asked: number; made: number; perRunMs?: number }>;
}

export interface MatrixCoverage {
  /** Distinct subjects that have a `params.valid-accepted` cell. */
  methods: number;
  /** Those of them that answered at least one success, sorted. */
  reached: string[];
  /** The others, sorted. */
  unreached: string[];
  /** Declared event types (subjects of an `event.payload-schema` cell) and those seen on the wire. */
  events?: KindCoverage;
  /** Declared server→client requests (subjects of a `server-request.envelope` cell) and those received. */
  serverRequests?: KindCoverage;
}

export interface KindCoverage {
  total: number;
  /** Sorted. */
  seen: string[];
  /** Sorted. */
  unseen: string[];
}

/** What the run was pointed at; the same for every shard of one run. */
export interface MatrixRun {
  /** The target as displayed, with any token already redacted. */
  target: string;
  contracts: MatrixContract[];
  /** The fuzzing seed, or null when the run did not set one. */
  seed: number | null;
  /** "i/n" when the matrix covers one shard only. */
  shard?: string;
  /** `--fail-on-flaky`: a flaky cell fails the verdict (absent: it does not). */
  failOnFlaky?: boolean;
  /**
   * `--min-coverage`: the percentage of the methods that must answer a valid call with a success, else the verdict
   * fails (absent: no floor). Recorded by every shard, applied to the merged matrix (src/report/coverageGate.ts).
   */
  minCoverage?: number;
}

export interface Matrix extends MatrixRun {
  /** ISO 8601 time at which the matrix was built. */
  generatedAt: string;
  /** `fail` iff at least one cell is `fail` or `stale`, or `flaky` under `failOnFlaky`, or coverage is below `minCoverage`. */
  verdict: 'pass' | 'fail';
  summary: MatrixSummary;
  /** Sorted by subject, then by the check's position in the catalogue. */
  cells: MatrixCell[];
  coverage: MatrixCoverage;
  /** Present when the target went down (or became slow) during the run; every cell after it is not-run. */
  targetDown?: TargetDown;
  traffic?: MatrixTraffic;
  runs?: MatrixRuns;
}
