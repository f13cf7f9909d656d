/**
 * When an answer's id names a request: the one identity rule of JSON-RPC ids, shared by the client (which
 * correlates its own requests) and the validating proxy (which correlates a watched client's), so that both
 * attribute every answer alike.
 *
 * - **Exact**: the same JSON value, as parsed. `1`, `1.0` and `1e0` are one number; `1` and `"1"` are not; numbers
 *   beyond 2^53 are compared as JSON.parse reads them (both sides parse the same text the same way); object and
 *   array ids (not allowed, but sent by faulty peers) compare by value, keys in any order.
 * - **Loose**: the same id written as text (`7` and `"7"`), for string and number ids only. A null id never
 *   matches loosely: servers answer `id: null` when they could not read the request's id.
 * - A frame without an id names no request.
 */
import { canonicalJson } from './canonicalJson.js';
import type { RpcId } from './jsonRpc.js';

/** The exact identity of an id as a map key (same JSON value, same key); undefined for a frame without an id. */
export function rpcIdKey(id: RpcId): string;
export function rpcIdKey(id: unknown): string | undefined;
export function rpcIdKey(id: unknown): string | undefined {
  switch (typeof id) {
    case 'string':
      return `s${id}`;
    case 'number':
      // String(-0) is "0", as JSON.stringify writes it.
      return `n${String(id)}`;
    case 'undefined':
      return undefined;
    default:
      return `j${canonicalJson(id)}`;
  }
}

/** The loose identity of an id (the id as text); undefined when the id cannot match loosely. */
export function rpcIdText(id: unknown): string | undefined {
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/** How an answer's id names a request's id: exactly, loosely, or not at all. */
export type RpcIdMatch = 'exact' | 'loose' | 'none';

export function matchRpcIds(requestId: unknown, answerId: unknown): RpcIdMatch {
  const key = rpcIdKey(answerId);
  if (key !== undefined && key === rpcIdKey(requestId)) return 'exact';
  const text = rpcIdText(answerId);
  return text !== undefined && text === rpcIdText(requestId) ? 'loose' : 'none';
}
