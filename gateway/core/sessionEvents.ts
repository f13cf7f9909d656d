import type { ContractChecker } from './contractChecker.js';
import type { GatewayConnection } from './gatewayConnection.js';
import type { OutboundFunnel } from './outboundFunnel.js';
import type { OutboundShapes } from './outboundShapes.js';
import type { ReplayRings } from './replayRings.js';

/** Where a session event goes: the session's runtime id and the connection it is bound to (if any). */
export interface EventTarget {
  readonly id: string;
  readonly binding: GatewayConnection | undefined;
}

/** Decides, before an event is stamped, whether it exists at all: `'suppress'` emits nothing (no seq, no ring). */
export type EmitGate = (type: string, sessionId: string, payload: unknown) => 'emit' | 'suppress';

/**
 * Emits `{"method":"event","params":{type, session_id, payload?, seq}}`: stamps the per-session seq, retains the
 * params in the replay ring, fits the payload to the contract and checks it, and routes the frame to the bound
 * connection.
 */
export class SessionEvents {
  private readonly gates: EmitGate[] = [];

  constructor(
    private readonly replay: ReplayRings,
    private readonly funnel: OutboundFunnel,
    private readonly checker: ContractChecker,
    private readonly shapes: OutboundShapes,
  ) {}

  /** A seam for faults: every session event passes `gate` first; returns the removal. */
  use(gate: EmitGate): () => void {
    this.gates.push(gate);
    return () => {
      const index = this.gates.indexOf(gate);
      if (index >= 0) this.gates.splice(index, 1);
    };
  }

  /** Returns the seq of the event, or undefined when a gate suppressed it. */
  emit(target: EventTarget, type: string, built?: unknown): number | undefined {
    const payload = this.shapes.event(type, built);
    if (this.gates.some((gate) => gate(type, target.id, payload) === 'suppress')) return undefined;
    const params: Record<string, unknown> = { type, session_id: target.id };
    if (payload !== undefined) params['payload'] = payload;
    this.checker.checkEvent(type, payload);
    const { seq, json } = this.replay.record(target.id, params);
    const connection = target.binding;
    if (connection?.open && connection.eventsEnabled) {
      // The ring already serialised the params: the frame's text is built around them, not serialised again.
      this.funnel.send(connection, { kind: 'event', frame: { jsonrpc: '2.0', method: 'event', params }, sessionId: target.id }, `{"jsonrpc":"2.0","method":"event","params":${json}}`);
    }
    return seq;
  }
}
