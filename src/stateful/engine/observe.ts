import { type Exchange, isJsonObject, type JsonObject, type JsonValue, outcomeOf } from '../../../core/index.js';

/** The outcome class of an answer: `success`, `error <code>` (domain codes compared exactly), `no-answer`, `malformed`. */
export function outcomeClass(exchange: Exchange): string {
  const outcome = outcomeOf(exchange);
  if (outcome.kind === 'result') return 'success';
  if (outcome.kind === 'error') return `error ${outcome.code}`;
  if (outcome.kind === 'failure') return 'no-answer';
  return 'malformed';
}

export function resultOf(exchange: Exchange): JsonObject | undefined {
  const outcome = outcomeOf(exchange);
  return outcome.kind === 'result' && isJsonObject(outcome.result) ? outcome.result : undefined;
}

export const lengthOf = (value: JsonValue | undefined): number | null => (Array.isArray(value) ? value.length : null);

export function shortAnswer(exchange: Exchange): string {
  const text = exchange.responseText ?? exchange.failure?.message ?? '(nothing)';
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
