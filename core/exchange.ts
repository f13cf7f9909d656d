import type { JsonValue } from './json.js';
import type { RpcId } from './jsonRpc.js';

export type Correlation = 'exact' | 'loose' | 'sole-pending' | 'none';

export interface ExchangeFailure {
  code: 'REQUEST_TIMEOUT' | 'CONNECTION_CLOSED' | 'UNPARSEABLE_FRAME';
  message: string;
  closeCode?: number;
  closeReason?: string;
}

/** One request and what came back for it, kept raw so that checks can judge the envelope. */
export interface Exchange {
  conn: string;
  method: string;
  id: RpcId;
  params: unknown;
  requestText: string;
  elapsedMs: number;
  /** The parsed response frame, when one was attributed to this request. */
  response?: Record<string, unknown>;
  responseText?: string;
  /**
   * How the response was matched: `exact` (same id, same type), `loose` (same id as text, another JSON type),
   * `sole-pending` (an id matching nothing while this was the only open request).
   */
  correlation: Correlation;
  failure?: ExchangeFailure;
  /** Answers that arrived for this request after the first one (the first few, cut to 128 KiB each). */
  duplicateAnswers?: string[];
  /** The answer that came after this request had timed out (cut to 128 KiB); the first one only. */
  lateAnswer?: string;
}

export type Outcome =
  | { kind: 'result'; result: JsonValue }
  | { kind: 'error'; code: number; message: string; data?: JsonValue }
  | { kind: 'malformed'; reason: string }
  | { kind: 'failure'; failure: ExchangeFailure };

/** Reads the verdict of an exchange; a frame with both result and error counts as an error (the stricter reading). */
export function outcomeOf(exchange: Exchange): Outcome {
  if (exchange.failure) return { kind: 'failure', failure: exchange.failure };
  const frame = exchange.response;
  if (!frame) return { kind: 'failure', failure: { code: 'CONNECTION_CLOSED', message: 'no response recorded' } };
  const error = frame['error'];
  if (error !== undefined && error !== null) {
    if (typeof error === 'object' && !Array.isArray(error)) {
      const { code, message, data } = error as Record<string, unknown>;
      if (typeof code === 'number') {
        return { kind: 'error', code, message: typeof message === 'string' ? message : '', ...(data !== undefined ? { data: data as JsonValue } : {}) };
      }
    }
    return { kind: 'malformed', reason: 'error member is not a JSON-RPC error object' };
  }
  if ('result' in frame) return { kind: 'result', result: frame['result'] as JsonValue };
  return { kind: 'malformed', reason: 'response has neither result nor error' };
}

export function describeOutcome(outcome: Outcome): string {
  switch (outcome.kind) {
    case 'result':
      return 'a success';
    case 'error':
      return `error ${outcome.code} "${outcome.message}"`;
    case 'malformed':
      return `a malformed response (${outcome.reason})`;
    case 'failure':
      return outcome.failure.message;
  }
}
