import { isJsonObject } from './json.js';
import type { WireEvent } from './jsonRpc.js';

/**
 * How a family of targets carries events over JSON-RPC notifications, and which event opens a connection. The
 * client records what `readEvent` returns as events; other notifications are kept as plain notifications.
 */
export interface WireDialect {
  readonly name: string;
  /** Whether a notification frame (no id, a string method) is meant as an event, well formed or not. */
  claims(frame: Record<string, unknown>): boolean;
  /** The event a claimed notification carries, or undefined when it is too malformed to read. */
  readEvent(frame: Record<string, unknown>): WireEvent | undefined;
  /** An event type the target sends first on every connection, if the family has one. */
  readonly readyEvent: string | undefined;
  /**
   * What `event.envelope` requires of an event notification beyond being a JSON-RPC notification: one line per
   * broken rule, each naming the member (`params.seq`) first.
   */
  envelopeProblems(frame: Record<string, unknown>): EnvelopeProblem[];
}

export interface EnvelopeProblem {
  /** The member at fault, as a dotted path from the frame (`params.session_id`, `id`). */
  readonly member: string;
  readonly message: string;
}

/** Problems every event notification can have, whatever the dialect: jsonrpc version and an id. */
export function notificationProblems(frame: Record<string, unknown>): EnvelopeProblem[] {
  const problems: EnvelopeProblem[] = [];
  if (frame['jsonrpc'] !== '2.0') problems.push({ member: 'jsonrpc', message: `jsonrpc is ${JSON.stringify(frame['jsonrpc'])}` });
  if ('id' in frame) problems.push({ member: 'id', message: 'it carries an id (events are notifications)' });
  return problems;
}

/**
 * Plain JSON-RPC: every notification is an event named by its method, its params the payload (OpenRPC documents
 * list them in `x-notifications`). There is no first frame and no session.
 */
export const JSON_RPC_DIALECT: WireDialect = {
  name: 'json-rpc',
  readyEvent: undefined,
  claims: (frame) => typeof frame['method'] === 'string' && !('id' in frame),
  readEvent(frame) {
    const method = frame['method'];
    if (typeof method !== 'string' || 'id' in frame) return undefined;
    const params = frame['params'];
    return params === undefined ? { type: method } : { type: method, payload: isJsonObject(params) || Array.isArray(params) ? params : (params as never) };
  },
  envelopeProblems: (frame) => notificationProblems(frame),
};
