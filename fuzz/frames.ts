import type { JsonValue } from '../core/index.js';

export type JunkExpectation = 'parse-error' | 'invalid-request' | 'batch' | 'oversized';

export interface JunkFrame {
  name: string;
  /** The exact text to send as one WebSocket text message. */
  frame: string;
  /**
   * parse-error: -32700 with id null; invalid-request: -32600; batch: a JSON array (support is optional in
   * practice: either an array of responses or one error); oversized: refused or the socket closed (1009).
   */
  expect: JunkExpectation;
  /** The id a conforming server puts in its reply: the request's own id when readable, null otherwise. */
  idEcho?: JsonValue;
}

export interface JunkFrameOptions {
  /** A method the target implements, used where a frame must be otherwise well formed (default OpenRPC's `rpc.discover`). */
  method?: string;
  /** Size in bytes (UTF-8) of the oversized frame (default 2 MiB). */
  oversizedBytes?: number;
}

export const DEFAULT_OVERSIZED_BYTES = 2 * 1024 * 1024;

/** `{"jsonrpc":"2.0","id":…,"method":…,"params":…}` as exact text; `id` omitted when undefined (a notification). */
export function requestFrame(request: { id?: JsonValue; method: string; params?: JsonValue }): string {
  const id = request.id === undefined ? '' : `"id":${JSON.stringify(request.id)},`;
  const params = request.params === undefined ? '' : `,"params":${JSON.stringify(request.params)}`;
  return `{"jsonrpc":"2.0",${id}"method":${JSON.stringify(request.method)}${params}}`;
}

/** A syntactically valid request padded to exactly `bytes` bytes of UTF-8. */
export function oversizedFrame(bytes: number, method: string, id: JsonValue = 'cg-junk-oversized'): string {
  const skeleton = requestFrame({ id, method, params: { padding: '' } });
  const missing = bytes - Buffer.byteLength(skeleton, 'utf8');
  if (missing < 0) throw new Error(`oversizedFrame: ${bytes} bytes is smaller than the request skeleton (${skeleton.length} bytes); ask for more`);
  return requestFrame({ id, method, params: { padding: 'x'.repeat(missing) } });
}

/** Envelope and frame junk for the envelope suite, in a fixed order; names are stable (usable as test titles). */
export function junkFrames(options: JunkFrameOptions = {}): JunkFrame[] {
  const method = options.method ?? 'rpc.discover';
  const m = JSON.stringify(method);
  const frames: JunkFrame[] = [
    { name: 'not JSON', frame: 'this is not json', expect: 'parse-error', idEcho: null },
    { name: 'empty text', frame: '', expect: 'parse-error', idEcho: null },
    { name: 'truncated JSON', frame: `{"jsonrpc":"2.0","id":"cg-junk-truncated","method":${m},"params":{`, expect: 'parse-error', idEcho: null },
    { name: 'trailing garbage', frame: `${requestFrame({ id: 'cg-junk-trailing', method })} x`, expect: 'parse-error', idEcho: null },
    { name: 'empty object', frame: '{}', expect: 'invalid-request', idEcho: null },
    { name: 'JSON null', frame: 'null', expect: 'invalid-request', idEcho: null },
    { name: 'JSON number', frame: '42', expect: 'invalid-request', idEcho: null },
    { name: 'JSON string', frame: '"gateway"', expect: 'invalid-request', idEcho: null },
    { name: 'jsonrpc "1.0"', frame: `{"jsonrpc":"1.0","id":"cg-junk-v1","method":${m}}`, expect: 'invalid-request', idEcho: 'cg-junk-v1' },
    { name: 'jsonrpc as number 2', frame: `{"jsonrpc":2,"id":"cg-junk-v2num","method":${m}}`, expect: 'invalid-request', idEcho: 'cg-junk-v2num' },
    { name: 'jsonrpc missing', frame: `{"id":"cg-junk-nover","method":${m}}`, expect: 'invalid-request', idEcho: 'cg-junk-nover' },
    { name: 'method missing', frame: '{"jsonrpc":"2.0","id":"cg-junk-nomethod"}', expect: 'invalid-request', idEcho: 'cg-junk-nomethod' },
    { name: 'method is a number', frame: '{"jsonrpc":"2.0","id":"cg-junk-methodnum","method":7}', expect: 'invalid-request', idEcho: 'cg-junk-methodnum' },
    { name: 'method is null', frame: '{"jsonrpc":"2.0","id":"cg-junk-methodnull","method":null}', expect: 'invalid-request', idEcho: 'cg-junk-methodnull' },
    { name: 'params is a string', frame: `{"jsonrpc":"2.0","id":"cg-junk-paramsstr","method":${m},"params":"x"}`, expect: 'invalid-request', idEcho: 'cg-junk-paramsstr' },
    { name: 'params is a number', frame: `{"jsonrpc":"2.0","id":"cg-junk-paramsnum","method":${m},"params":1}`, expect: 'invalid-request', idEcho: 'cg-junk-paramsnum' },
    { name: 'id is an object', frame: `{"jsonrpc":"2.0","id":{"a":1},"method":${m}}`, expect: 'invalid-request', idEcho: null },
    { name: 'id is an array', frame: `{"jsonrpc":"2.0","id":[1],"method":${m}}`, expect: 'invalid-request', idEcho: null },
    { name: 'empty batch', frame: '[]', expect: 'invalid-request', idEcho: null },
    { name: 'batch of two requests', frame: `[${requestFrame({ id: 'cg-junk-batch-1', method })},${requestFrame({ id: 'cg-junk-batch-2', method })}]`, expect: 'batch' },
    { name: 'batch with a junk entry', frame: `[${requestFrame({ id: 'cg-junk-batch-3', method })},1]`, expect: 'batch' },
  ];
  const bytes = options.oversizedBytes ?? DEFAULT_OVERSIZED_BYTES;
  frames.push({ name: `oversized frame (${bytes} bytes)`, frame: oversizedFrame(bytes, method), expect: 'oversized', idEcho: 'cg-junk-oversized' });
  return frames;
}

export interface IdProbe {
  name: string;
  id: string | number;
}

/**
 * Request ids of each JSON type a server must echo unchanged (same value, same type). `null` is left out: a
 * request whose id is null is legal but discouraged and is easily mistaken for a notification (no id at all),
 * so it is tested on its own with {@link NULL_ID_PROBE}.
 */
export function idProbes(): IdProbe[] {
  return [
    { name: 'short string', id: 'cg-id-1' },
    { name: 'empty string', id: '' },
    { name: 'numeric string', id: '42' },
    { name: 'unicode string', id: 'cg-id-\u00e9\u2014\u{1f600}' },
    { name: 'long string (1024 chars)', id: `cg-id-${'x'.repeat(1018)}` },
    { name: 'positive integer', id: 7 },
    { name: 'zero', id: 0 },
    { name: 'negative integer', id: -7 },
    { name: 'fractional number', id: 1.5 },
    { name: 'largest safe integer', id: Number.MAX_SAFE_INTEGER },
  ];
}

export const NULL_ID_PROBE = { name: 'null id', id: null } as const;
