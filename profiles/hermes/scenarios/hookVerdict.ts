import type { RuleId } from '../../../src/checks/checkCatalogue.js';
import { violation, type Violation } from '../../../src/checks/violation.js';

/** What a hook scenario concludes (the shape of a matrix cell verdict, so fixtures pass it through unchanged). */
export interface HookVerdict {
  status: 'pass' | 'fail' | 'n/a';
  detail: string;
  violations: Violation[];
  /** Lines for the counterexample attachment: what the observer saw. */
  context?: string[];
}

/** The broken rules of one check, collected while its scenario runs. */
export class HookFindings {
  readonly violations: Violation[] = [];
  readonly notes: string[] = [];

  constructor(readonly check: RuleId) {}

  /** Records `message` unless `holds`; returns `holds`. */
  expect(holds: boolean, message: string): boolean {
    if (!holds) this.violations.push(violation(this.check, message));
    return holds;
  }

  fail(message: string): void {
    this.violations.push(violation(this.check, message));
  }

  note(line: string): void {
    this.notes.push(line);
  }

  verdict(passDetail: string): HookVerdict {
    const context = this.notes.length > 0 ? { context: [...this.notes] } : {};
    if (this.violations.length === 0) return { status: 'pass', detail: passDetail, violations: [], ...context };
    const more = this.violations.length > 1 ? ` (+${this.violations.length - 1} more)` : '';
    return { status: 'fail', detail: `${this.violations[0]?.message ?? ''}${more}`, violations: [...this.violations], ...context };
  }
}

export const notApplicable = (detail: string): HookVerdict => ({ status: 'n/a', detail, violations: [] });

export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'number' ? `error ${code} "${error.message}"` : error.message;
  }
  return String(error);
}

/** The verdict of a scenario that stopped on an unexpected answer: the step and the error are the violation. */
export function aborted(findings: HookFindings, step: string, error: unknown): HookVerdict {
  findings.fail(`${step}: ${describeError(error)}`);
  return findings.verdict('');
}
