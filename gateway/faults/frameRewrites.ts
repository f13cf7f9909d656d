import type { GatewayConnection } from '../core/gatewayConnection.js';
import type { InboundDecision, InboundFrame } from '../core/inboundGate.js';
import type { FrameInterceptor, OutboundFrame } from '../core/outboundFunnel.js';

/** Small building blocks for faults: which frames to touch and how to write a changed one. */

export type Frame = Record<string, unknown>;

export function isPlainObject(value: unknown): value is Frame {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The same outbound frame with another JSON frame. */
export const reframed = (outbound: OutboundFrame, frame: Frame): OutboundFrame => ({ ...outbound, frame });

/** The error code of a response frame, if it is an error. */
export function errorCode(frame: Frame): number | undefined {
  const error = frame['error'];
  return isPlainObject(error) && typeof error['code'] === 'number' ? error['code'] : undefined;
}

/** Rewrites (or drops, or duplicates) the responses to one method; every other frame passes unchanged. */
export function onResponses(method: string, change: (outbound: OutboundFrame, connection: GatewayConnection) => OutboundFrame[]): FrameInterceptor {
  return (outbound, connection) => (outbound.kind === 'response' && outbound.method === method ? change(outbound, connection) : [outbound]);
}

/** Rewrites the result object of successful responses to one method. */
export function onResults(method: string, change: (result: Frame, outbound: OutboundFrame) => Frame): FrameInterceptor {
  return onResponses(method, (outbound) => {
    const result = outbound.frame['result'];
    if (!isPlainObject(result)) return [outbound];
    return [reframed(outbound, { ...outbound.frame, result: change(structuredClone(result), outbound) })];
  });
}

/** Rewrites the params of live events of one type (the replay ring keeps what the gateway stamped). */
export function onEvents(type: string, change: (params: Frame, outbound: OutboundFrame) => Frame): FrameInterceptor {
  return (outbound) => {
    const params = outbound.frame['params'];
    if (outbound.kind !== 'event' || !isPlainObject(params) || params['type'] !== type) return [outbound];
    return [reframed(outbound, { ...outbound.frame, params: change(structuredClone(params), outbound) })];
  };
}

/** A request of `method` as received (before any envelope or contract check). */
export interface InboundRequest {
  readonly id: unknown;
  readonly hasId: boolean;
  readonly params: unknown;
  readonly request: Frame;
}

/** Lets `decide` look at requests of one method; everything else is dispatched unchanged. */
export function onRequests(method: string, decide: (request: InboundRequest, frame: InboundFrame) => InboundDecision): (frame: InboundFrame) => InboundDecision {
  return (frame) => {
    const value = frame.value;
    if (!isPlainObject(value) || value['method'] !== method) return { value };
    return decide({ id: value['id'], hasId: 'id' in value, params: value['params'], request: value }, frame);
  };
}

/** A JSON-RPC error answer for a request (none for a notification). */
export function errorReply(request: InboundRequest, code: number, message: string): InboundDecision {
  return request.hasId ? { reply: { jsonrpc: '2.0', id: request.id, error: { code, message } } } : 'drop';
}
