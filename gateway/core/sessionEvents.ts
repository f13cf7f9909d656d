import type { ContractChecker } from './contractChecker.js';
import type { GatewayConnection } from './gatewayConnection.js';
import type { OutboundFunnel } from './outboundFunnel.js';
import type { ReplayRings } from './replayRings.js';

/** Where a session event goes: the session's runtime id and the connection it is bound to (if any). */
export interface EventTarget {
  readonly id: string;
  readonly binding: GatewayConnection | undefined;
}

/**
 * Emits `{"method":"event","params":{type, session_id, payload?, seq}}`: stamps the per-session seq, retains the
 * params in the replay ring, checks the payload against the contract and routes the frame to the bound connection.
 */
export class SessionEvents {
  constructor(
    private readonly replay: ReplayRings,
    private readonly funnel: OutboundFunnel,
    private readonly checker: ContractChecker,
  ) {}

  emit(target: EventTarget, type: string, payload?: unknown): number {
    const params: Record<string, unknown> = { type, session_id: target.id };
    if (payload !== undefined) params['payload'] = payload;
    this.checker.checkEvent(type, payload);
    const seq = this.replay.record(target.id, params);
    const connection = target.binding;
    if (connection?.open && connection.eventsEnabled) {
      this.funnel.send(connection, { kind: 'event', frame: { jsonrpc: '2.0', method: 'event', params }, sessionId: target.id });
    }
    return seq;
  }
}
