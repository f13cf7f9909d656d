import type { CheckId } from '../checks/checkCatalogue.js';
import type { Violation } from '../checks/violation.js';
import type { FrameFinding } from './findings.js';

/** How many frames one cell judged. */
export interface JudgedCell {
  subject: string;
  check: CheckId;
  judged: number;
}

/** Frames that were relayed but that no check could judge, by reason. */
export interface UnjudgedCounts {
  clientNotJson: number;
  serverNotJson: number;
  batches: number;
  tooLarge: number;
  clientNotifications: number;
  unattributedAnswers: number;
  undeclaredEvents: Map<string, number>;
  /** Requests still unanswered when the client closed its connection. */
  abandonedRequests: number;
}

export const noneUnjudged = (): UnjudgedCounts => ({
  clientNotJson: 0,
  serverNotJson: 0,
  batches: 0,
  tooLarge: 0,
  clientNotifications: 0,
  unattributedAnswers: 0,
  undeclaredEvents: new Map(),
  abandonedRequests: 0,
});

/** What every finding of one judged frame shares. */
export type FindingBase = Pick<FrameFinding, 'conn' | 'subject' | 'kind' | 'at' | 'frame' | 'request' | 'answer'>;

/** Counts each judgement under its cell (subject × check) and turns its violations into findings. */
export class JudgeTally {
  /** Cells by subject, then check: every judged frame counts, and a key made of both for each cost a string each time. */
  private readonly bySubject = new Map<string, Map<CheckId, JudgedCell>>();
  /** The cells in the order they were first judged. */
  private readonly judged: JudgedCell[] = [];

  get cells(): JudgedCell[] {
    return [...this.judged];
  }

  /** `path` may be a function: it is only worked out when there is a violation to place. */
  apply(base: FindingBase, check: CheckId, violations: readonly Violation[], path: string | (() => string), skew?: FrameFinding['skew']): FrameFinding[] {
    this.count(base.subject, check);
    if (violations.length === 0) return [];
    const where = typeof path === 'string' ? path : path();
    return violations.map((v) => ({ ...base, check, path: where, message: v.message, ...(skew ? { skew } : {}) }));
  }

  private count(subject: string, check: CheckId): void {
    let checks = this.bySubject.get(subject);
    if (!checks) this.bySubject.set(subject, (checks = new Map()));
    const cell = checks.get(check);
    if (cell) {
      cell.judged++;
      return;
    }
    const first = { subject, check, judged: 1 };
    checks.set(check, first);
    this.judged.push(first);
  }
}
