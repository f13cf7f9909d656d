import type { CheckId } from '../checks/checkCatalogue.js';
import type { Evidence } from '../checks/evidence.js';
import { violation, type Violation } from '../checks/violation.js';
import type { RpcClient, RpcClientOptions } from '../client/rpcClient.js';

/** What a scenario concludes; the same shape as a matrix cell verdict, so fixtures pass it through unchanged. */
export interface ScenarioVerdict {
  status: 'pass' | 'fail' | 'n/a';
  detail: string;
  violations: Violation[];
  /** Extra lines for the failure message and the counterexample attachment. */
  context?: string[];
  /** What the scenario saw answered or arrive, for coverage (see REACHED_PREFIX in src/report/matrixModel.ts). */
  reached?: string[];
  /** What the scenario observed, where its transcript does not say it (refusals seen, sequences run). */
  evidence?: Partial<Evidence>;
}

/** Opens a connection to the gateway under test (or to `url`), recording into the scenario's transcript. */
export type Connect = (options?: Partial<RpcClientOptions> & { url?: string }) => Promise<RpcClient>;

/** Collects the broken rules of one check while a scenario runs, then turns them into a verdict. */
export class Findings {
  readonly violations: Violation[] = [];
  readonly notes: string[] = [];

  constructor(readonly check: CheckId) {}

  fail(message: string): void {
    this.violations.push(violation(this.check, message));
  }

  /** Records `message` as a violation unless `holds`; returns `holds`. */
  expect(holds: boolean, message: string): boolean {
    if (!holds) this.fail(message);
    return holds;
  }

  note(line: string): void {
    this.notes.push(line);
  }

  get ok(): boolean {
    return this.violations.length === 0;
  }

  verdict(passDetail: string): ScenarioVerdict {
    const context = this.notes.length > 0 ? { context: [...this.notes] } : {};
    if (this.ok) return { status: 'pass', detail: passDetail, violations: [], ...context };
    const [first] = this.violations;
    const more = this.violations.length > 1 ? ` (+${this.violations.length - 1} more)` : '';
    return { status: 'fail', detail: `${first?.message ?? ''}${more}`, violations: [...this.violations], ...context };
  }
}

export function notApplicable(detail: string): ScenarioVerdict {
  return { status: 'n/a', detail, violations: [] };
}

/** A verdict for a scenario that stopped on an unexpected error (a refused call, a timeout): the error is the violation. */
export function aborted(check: CheckId, step: string, error: unknown, notes: readonly string[] = []): ScenarioVerdict {
  const message = `${step}: ${describeError(error)}`;
  return { status: 'fail', detail: message, violations: [violation(check, message)], ...(notes.length > 0 ? { context: [...notes] } : {}) };
}

export function describeError(error: unknown): string {
  if (error instanceof Error) {
    // RpcError carries the wire code; HarnessError already names its code in the message.
    const code = (error as { code?: unknown }).code;
    return typeof code === 'number' ? `error ${code} "${error.message}"` : error.message;
  }
  return String(error);
}
