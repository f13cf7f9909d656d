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
  private readonly tally = new Map<string, JudgedCell>();

  get cells(): JudgedCell[] {
    return [...this.tally.values()];
  }

  /** `path` may be a function: it is only worked out when there is a violation to place. */
  apply(base: FindingBase, check: CheckId, violations: readonly Violation[], path: string | (() => string), skew?: FrameFinding['skew']): FrameFinding[] {
    this.count(base.subject, check);
    if (violations.length === 0) return [];
    const where = typeof path === 'string' ? path : path();
    return violations.map((v) => ({ ...base, check, path: where, message: v.message, ...(skew ? { skew } : {}) }));
  }

  private count(subject: string, check: CheckId): void {
    const key = `${subject}\u0000${check}`;
    const cell = this.tally.get(key);
    if (cell) cell.judged++;
    else this.tally.set(key, { subject, check, judged: 1 });
  }
}
