import type { Exchange } from '../../core/index.js';
import { violation, type Violation } from './violation.js';

const typeName = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** `envelope.jsonrpc-version`: the response says jsonrpc "2.0". */
export function checkJsonrpcVersion(exchange: Exchange): Violation[] {
  const frame = exchange.response;
  if (!frame || frame['jsonrpc'] === '2.0') return [];
  const seen = 'jsonrpc' in frame ? JSON.stringify(frame['jsonrpc']) : 'no jsonrpc member';
  return [violation('envelope.jsonrpc-version', `${exchange.method} (id ${JSON.stringify(exchange.id)}): response has ${seen}; JSON-RPC 2.0 requires jsonrpc: "2.0"`, exchange.id)];
}

/** `envelope.id-echo`: the response echoes the request id with the same JSON type and value. */
export function checkIdEcho(exchange: Exchange): Violation[] {
  const frame = exchange.response;
  if (!frame || exchange.correlation === 'exact') return [];
  const echoed = frame['id'];
  const shown = 'id' in frame ? `${JSON.stringify(echoed)} (${typeName(echoed)})` : 'no id';
  return [
    violation(
      'envelope.id-echo',
      `${exchange.method}: request id ${JSON.stringify(exchange.id)} (${typeName(exchange.id)}) was answered with id ${shown}; a response must echo the id with the identical type and value`,
      exchange.id,
    ),
  ];
}

/** `envelope.result-xor-error`: exactly one of result and error. */
export function checkResultXorError(exchange: Exchange): Violation[] {
  const frame = exchange.response;
  if (!frame) return [];
  const hasResult = 'result' in frame;
  const hasError = 'error' in frame;
  if (hasResult !== hasError) return [];
  const what = hasResult ? 'both result and error' : 'neither result nor error';
  return [violation('envelope.result-xor-error', `${exchange.method} (id ${JSON.stringify(exchange.id)}): response has ${what}; exactly one is required`, exchange.id)];
}

/**
 * Whether the answer is an error answer, the only kind `envelope.error-shape` judges: a frame that also carries result
 * (often with `error: null`) is not one, and `envelope.result-xor-error` owns it. A judge that saw none has seen
 * nothing of the rule.
 */
export function isErrorAnswer(exchange: Exchange): boolean {
  const frame = exchange.response;
  return frame !== undefined && 'error' in frame && !('result' in frame);
}

/** `envelope.error-shape`: error is {code: integer, message: string, data?}, on error answers ({@link isErrorAnswer}). */
export function checkErrorShape(exchange: Exchange): Violation[] {
  const frame = exchange.response;
  if (!frame || !isErrorAnswer(exchange)) return [];
  const error = frame['error'];
  const problems: string[] = [];
  if (typeof error !== 'object' || error === null || Array.isArray(error)) {
    problems.push(`error is ${typeName(error)}, not an object`);
  } else {
    const { code, message } = error as Record<string, unknown>;
    if (typeof code !== 'number' || !Number.isInteger(code)) problems.push(`error.code is ${JSON.stringify(code)}, not an integer`);
    if (typeof message !== 'string') problems.push(`error.message is ${JSON.stringify(message)}, not a string`);
  }
  return problems.length === 0
    ? []
    : [violation('envelope.error-shape', `${exchange.method} (id ${JSON.stringify(exchange.id)}): ${problems.join('; ')}; the error object is {code: integer, message: string, data?}`, exchange.id)];
}

export const ENVELOPE_CHECKS = {
  'envelope.jsonrpc-version': checkJsonrpcVersion,
  'envelope.id-echo': checkIdEcho,
  'envelope.result-xor-error': checkResultXorError,
  'envelope.error-shape': checkErrorShape,
} as const;

export type EnvelopeCheckId = keyof typeof ENVELOPE_CHECKS;
