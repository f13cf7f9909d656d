import type { CodeProfile } from '../checks/codeProfile.js';
import type { Contract } from '../contracts/contractModel.js';
import type { SchemaValidators } from '../contracts/schemaValidators.js';
import type { WireDialect } from '../../core/wireDialect.js';
import type { JudgeTally, UnjudgedCounts } from './judgeTally.js';

export interface FrameJudgeOptions {
  server: Contract;
  /** The contract of the watched client, when known: what it may send. */
  client?: Contract;
  profile: CodeProfile;
  /** How the target carries events (default: plain JSON-RPC notifications). */
  dialect?: WireDialect;
  /** Methods the gateway answers before dispatch, without its contract (never judged against it). */
  inlineMethods?: readonly string[];
  /** Longer frames are relayed but not parsed (default 8 MiB). */
  maxJudgedChars?: number;
}

/** A request whose params break the server contract, and what the gateway made of it. */
export interface SkewObservation {
  method: string;
  path: string;
  /** Whether the request fits the client contract (undefined without one). */
  clientAllows?: boolean;
  answer: string;
  conn: string;
}

/** What the answer and event judges share with the frame judge that calls them. */
export interface JudgeContext {
  readonly options: FrameJudgeOptions;
  readonly validators: SchemaValidators;
  readonly dialect: WireDialect;
  readonly tally: JudgeTally;
  readonly unjudged: UnjudgedCounts;
  /** Methods that answered at least one success. */
  readonly reached: Set<string>;
  readonly skew: Map<string, SkewObservation>;
  /** A method the gateway answers inline, before dispatch and without its contract. */
  isWireMethod(method: string): boolean;
  /** The profile as `method` sees it: the codes the server contract declares in its `errors` are domain errors. */
  profileFor(method: string): CodeProfile;
}

export const SESSION_EVENTS_SUBJECT = '(session events)';
export const CONNECTION_SUBJECT = '(connection)';
