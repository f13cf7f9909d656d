import type { Exchange, JsonValue } from '../../core/index.js';
import type { CheckId } from '../checks/checkCatalogue.js';
import type { Violation } from '../checks/violation.js';

export type Phase = 'valid' | 'unknown-key' | 'invalid';

/** One payload sent in a phase, with what it was and what came back. */
export interface CaseRecord {
  phase: Phase;
  /** The payload before identifier binding (what the generator produced). */
  generated: JsonValue;
  /** The payload as sent. */
  payload: JsonValue;
  exchange: Exchange;
  /** Fields whose values came from bound live objects, with the template that produced them. */
  substitutions: Record<string, string>;
  /** Unknown-key phase: the probed path and its policy; invalid phase: the mutation. */
  probe?: { dottedPath: string; policy: 'closed' | 'open'; key: string; without?: Exchange };
  mutation?: { kind: string; dottedPath: string; description: string };
  /** Setup exchanges that created the live objects this case used (fresh methods only). */
  setup?: Exchange[];
}

export interface Counterexample {
  seed: number;
  /** fast-check path for `fc.check(…, { seed, path })`. */
  path?: string;
  /** Number of shrink steps taken (0: not shrunk, e.g. a fixed probe). */
  shrinks: number;
  record: CaseRecord;
}

export type CheckStatus = 'pass' | 'fail' | 'n/a';

export interface CheckVerdict {
  check: CheckId;
  status: CheckStatus;
  /** One line for the matrix cell. */
  detail: string;
  violations: Violation[];
  /** Number of exchanges the check judged. */
  judged: number;
  /**
   * Of those, the ones the target answered: what the check saw of the target (its evidence). Fewer than `judged` only
   * where a missing answer breaks no rule (a contract-invalid payload left unanswered is not accepted, and not seen).
   */
  answered: number;
  counterexample?: Counterexample;
}

export interface MethodRunResult {
  method: string;
  seed: number;
  records: CaseRecord[];
  verdicts: Map<CheckId, CheckVerdict>;
  /** The method answered at least one success. */
  reached: boolean;
  /** Runs of the valid phase actually executed (fast-check may stop early on its time limit). */
  validRuns: number;
  elapsedMs: number;
}

export const METHOD_CHECKS = [
  'params.valid-accepted',
  'params.unknown-key-rejected',
  'params.unknown-key-tolerated',
  'params.invalid-not-accepted',
  'result.schema',
  'envelope.jsonrpc-version',
  'envelope.id-echo',
  'envelope.result-xor-error',
  'envelope.error-shape',
  'envelope.error-hygiene',
] as const satisfies readonly CheckId[];

export type MethodCheckId = (typeof METHOD_CHECKS)[number];
