import type { CheckId } from '../checks/checkCatalogue.js';
import type { Evidence } from '../checks/evidence.js';
import type { Violation } from '../checks/violation.js';
import type { RpcClient, RpcClientOptions } from '../client/rpcClient.js';
import type { Transcript } from '../client/transcript.js';
import type { RunPlan } from './runPlan.js';
import type { Target } from './target.js';

/**
 * The cells of the matrix as data, independent of the runner: Playwright declares one test per cell
 * (fixtures/conformance.ts), the in-process runner runs the same declarations (fixtures/inProcessRun.ts).
 */

/**
 * What a cell concludes; `fail` carries the violations; `not-run` means it was never judged (the target went down);
 * `flaky` failed, then passed when retried with the same seed and cases (`--retries`, src/run/cellRetries.ts).
 */
export interface CellVerdict {
  status: 'pass' | 'fail' | 'n/a' | 'not-run' | 'flaky';
  detail: string;
  violations: Violation[];
  /** Methods that answered a success during this cell (coverage). */
  reached?: string[];
  transcriptFile?: string;
  replayFile?: string;
  /** Extra lines for the failure message (seed, replay command, counterexample). */
  context?: string[];
  /**
   * What the judge observed, where it knows better than the cell's transcript (src/run/transcriptEvidence.ts):
   * the counts it names replace the transcript's.
   */
  evidence?: Partial<Evidence>;
  /** Attempts made when the cell was retried (1 + the retries it took). */
  attempts?: number;
}

/** Where a cell leaves evidence beside its verdict (Playwright's TestInfo is one). */
export interface CellEvidence {
  readonly annotations: Array<{ type: string; description?: string }>;
  attach(name: string, options: { body: string | Buffer; contentType: string }): Promise<void>;
}

export interface CellFixtures {
  plan: RunPlan;
  target: Target;
  /** Every frame of this cell's connections, redacted. */
  transcript: Transcript;
  /** Opens a connection to the target that records into the cell's transcript; closed after the cell. */
  connect: (options?: Partial<RpcClientOptions> & { url?: string }) => Promise<RpcClient>;
}

/** A cell that drives the target (or siblings of it). */
export type CellBody = (fixtures: CellFixtures, evidence: CellEvidence) => Promise<CellVerdict>;

/** A cell that only judges what the setup stage recorded: it never touches the target. */
export type JudgeBody = (plan: RunPlan) => CellVerdict | Promise<CellVerdict>;

/**
 * When a cell runs: `cells` after the setup stage; `destructive` after every other cell, because a fragile
 * target may not survive it.
 */
export type CellStage = 'cells' | 'destructive';

export interface CellDeclaration {
  readonly subject: string;
  readonly check: CheckId;
  /** Cells of one group always land on the same shard (default: the subject). */
  readonly group: string;
  /** The spec file that declares it (a family: methods, events, replay, …). */
  readonly family: string;
  readonly stage: CellStage;
  readonly timeoutMs: number | undefined;
  /**
   * Why the run's documents make the cell n/a (they declare nothing it needs), decided from the contract alone:
   * it takes precedence over a target that went down, since the cell would never have applied.
   */
  readonly inapplicable?: (plan: RunPlan) => string | undefined;
  /**
   * Live cells with the same key run one after the other in one worker, in declaration order, so that a later one
   * may judge what the first recorded in the run's folder (the two stateful checks share one search). A runner that
   * runs cells in one process may run them at once: they then share the work in memory.
   */
  readonly together?: string;
  readonly run:
    | { readonly kind: 'live'; readonly body: CellBody }
    /** `rejudge` records afresh what the judge judges (the method's run, the event sample) and judges that: a retry. */
    | { readonly kind: 'judge'; readonly judge: JudgeBody; readonly rejudge?: CellBody };
}

/** Setup work whose results several cells judge: one method's run, or the event sample. */
export type Preparation =
  | { readonly kind: 'method-run'; readonly title: string; readonly contractIndex: number; readonly method: string }
  | { readonly kind: 'event-sample'; readonly title: string };
