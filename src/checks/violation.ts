import type { RuleId } from './checkCatalogue.js';

/** One broken rule, as data. Only matchers in fixtures/ turn violations into failing assertions. */
export interface Violation {
  check: RuleId;
  /** Subject first, then the rule broken, then what was seen (and the fix where there is one). */
  message: string;
  /** Request id of the exchange, when the violation belongs to one. */
  requestId?: string | number | null;
}

export function violation(check: RuleId, message: string, requestId?: string | number | null): Violation {
  return requestId === undefined ? { check, message } : { check, message, requestId };
}
