/** JSON-RPC 2.0 message shapes as they appear on the wire (loosely typed: a target may send anything). */

import { isJsonObject, type JsonObject, type JsonValue } from './json.js';

export type RpcId = string | number | null;

export interface RpcRequest {
  jsonrpc: '2.0';
  id: RpcId;
  method: string;
  params?: JsonObject | JsonValue[];
}

export interface RpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject | JsonValue[];
}

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: JsonValue;
}

export interface RpcSuccess {
  jsonrpc: '2.0';
  id: RpcId;
  result: JsonValue;
}

export interface RpcFailure {
  jsonrpc: '2.0';
  id: RpcId;
  error: RpcErrorObject;
}

export type RpcResponse = RpcSuccess | RpcFailure;

/**
 * An event as the harness judges it, whatever notification carried it (the profile's wire dialect reads it): its
 * type, the session it belongs to with its per-session sequence number when the family has sessions, and its payload.
 */
export interface WireEvent {
  type: string;
  session_id?: string;
  payload?: JsonValue;
  seq?: number;
  [extra: string]: JsonValue | undefined;
}

/** A frame is a response when it has an `id` key and no `method` (result/error presence is checked separately). */
export function looksLikeResponse(frame: unknown): frame is Record<string, unknown> {
  return isJsonObject(frame) && !('method' in frame) && ('result' in frame || 'error' in frame || 'id' in frame);
}

export function looksLikeNotification(frame: unknown): frame is Record<string, unknown> {
  return isJsonObject(frame) && typeof frame['method'] === 'string' && !('id' in frame);
}
