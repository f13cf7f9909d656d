import { describeOutcome, outcomeOf, type Exchange } from '../../core/index.js';
import type { CodeProfile } from './codeProfile.js';

export type OutcomeClass = 'success' | 'domain-error' | 'contract-rejection' | 'unknown-method' | 'server-error' | 'no-answer' | 'malformed';

/** Sorts an answer into the classes the params checks reason about. */
export function classifyExchange(exchange: Exchange, profile: CodeProfile): OutcomeClass {
  const outcome = outcomeOf(exchange);
  switch (outcome.kind) {
    case 'result':
      return 'success';
    case 'malformed':
      return 'malformed';
    case 'failure':
      return outcome.failure.code === 'UNPARSEABLE_FRAME' ? 'malformed' : 'no-answer';
    case 'error':
      if (outcome.code === -32601) return 'unknown-method';
      if (profile.isContractRejection(outcome.code)) return 'contract-rejection';
      // Domain rules first: a method's declared errors and a profile's own codes win over the reserved ranges.
      return profile.isDomainError(outcome.code, outcome.message) ? 'domain-error' : 'server-error';
  }
}

export function describeExchange(exchange: Exchange): string {
  const outcome = outcomeOf(exchange);
  if (outcome.kind === 'failure' && outcome.failure.closeCode !== undefined) {
    return `${outcome.failure.message.replace(/^\[[A-Z_]+\] /, '')}`;
  }
  // Slow, not silent: what came after the timeout tells the two apart.
  const late = outcome.kind === 'failure' && exchange.lateAnswer !== undefined ? ` (an answer came after the timeout: ${exchange.lateAnswer.slice(0, 200)})` : '';
  return `${describeOutcome(outcome)}${late}`;
}
