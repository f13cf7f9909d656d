import { randomBytes } from 'node:crypto';
import type { ContractSet, MethodContract } from './contract/contractSet.js';
import type { ContractChecker } from './contractChecker.js';
import type { LiveSession } from './liveSessions.js';
import type { OutboundFunnel } from './outboundFunnel.js';
import type { OutboundShapes } from './outboundShapes.js';
import type { SchemaResponder } from './schemaResponder.js';
import type { SessionEvents } from './sessionEvents.js';
import type { TimerHandle, Timers } from './timers.js';

/** Why an open request was withdrawn (`request.cancel.reason`, the values `RequestCancelReason` names). */
export type WithdrawReason = 'timeout' | 'interrupted' | 'shutdown' | 'resolved' | 'session_closed';

/** How a server request ended for the turn that asked it. */
export type ServerRequestOutcome =
  | { readonly kind: 'answered'; readonly result: Record<string, unknown> }
  /** The client answered with an error: the request counts as not answered. */
  | { readonly kind: 'refused'; readonly error: unknown }
  | { readonly kind: 'withdrawn'; readonly reason: WithdrawReason };

/** An open request as `open_requests` lists it: `{id, method, params}` with `params.session_id`. */
export interface OpenRequestEntry {
  readonly id: string;
  readonly method: string;
  readonly params: Record<string, unknown>;
}

/** A seam for faults: decides whether an accepted answer reaches the turn that waits for it. */
export type AnswerGate = (request: OpenRequestEntry, outcome: ServerRequestOutcome) => 'deliver' | 'swallow';

interface OpenRequest extends OpenRequestEntry {
  readonly session: LiveSession;
  readonly timer: TimerHandle | undefined;
  settle(outcome: ServerRequestOutcome): void;
}

export interface ServerRequestDeps {
  readonly contracts: ContractSet;
  readonly funnel: OutboundFunnel;
  readonly events: SessionEvents;
  readonly timers: Timers;
  readonly shapes: OutboundShapes;
  readonly checker: ContractChecker;
  readonly responder: SchemaResponder;
  /** An unanswered request is withdrawn (`timeout`) after this long; 0 waits until it is answered or withdrawn. */
  readonly timeoutMs: number;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The gateway's half of server→client requests (`tui_gateway/server_requests.py`): a request frame
 * `{"jsonrpc":"2.0","id":"srq-<12 hex>","method","params":{session_id,…}}` goes to the session's owner connection,
 * the first response with that id settles it (an error response counts as not answered; unknown ids, duplicates
 * and late answers are dropped), and a request that ends otherwise is withdrawn with exactly one
 * `request.cancel {id, method, reason}` on its session. A dropped connection leaves it open: it is listed in
 * `open_requests` until someone answers it or it is withdrawn.
 */
export class ServerRequests {
  private readonly open = new Map<string, OpenRequest>();
  private readonly gates: AnswerGate[] = [];

  constructor(private readonly deps: ServerRequestDeps) {}

  declared(method: string): MethodContract | undefined {
    return this.deps.contracts.serverRequests.get(method);
  }

  /** Asks `method` on behalf of `session` with seeded, schema-valid params; resolves with how it ended. */
  ask(session: LiveSession, method: string): Promise<ServerRequestOutcome> {
    const contract = this.declared(method);
    if (!contract) return Promise.reject(new Error(`no server request ${method} is declared`));
    const params = this.deps.shapes.params(contract, { ...this.sampleParams(contract), session_id: session.id });
    this.deps.checker.checkServerRequest(contract, params);
    const id = `srq-${randomBytes(6).toString('hex')}`;
    return new Promise((resolve) => {
      const timer = this.deps.timeoutMs > 0 ? this.deps.timers.after(this.deps.timeoutMs, () => this.withdraw(id, 'timeout')) : undefined;
      this.open.set(id, { id, method, params, session, timer, settle: resolve });
      const connection = session.binding;
      if (connection?.open && connection.eventsEnabled) {
        this.deps.funnel.send(connection, { kind: 'request', frame: { jsonrpc: '2.0', id, method, params }, method, sessionId: session.id });
      }
    });
  }

  /** A response frame from a client: routed to its open request; false when nothing waits for that id. */
  resolve(frame: Record<string, unknown>): boolean {
    const id = frame['id'];
    if (typeof id !== 'string') return false;
    const request = this.claim(id);
    if (!request) return false;
    const result = frame['result'];
    this.deliver(request, 'error' in frame ? { kind: 'refused', error: frame['error'] } : { kind: 'answered', result: isObject(result) ? result : {} });
    return true;
  }

  /** `request.answer`: the same as a response frame, for a client that never received the request. */
  answer(id: string, result: Record<string, unknown>): 'ok' | 'expired' {
    return this.resolve({ id, result }) ? 'ok' : 'expired';
  }

  /** Withdraws the open requests of a session (all of them: an interrupt or a close ends every question it asked). */
  withdrawSession(sessionId: string, reason: WithdrawReason): number {
    const ids = [...this.open.values()].filter((request) => request.session.id === sessionId).map((request) => request.id);
    for (const id of ids) this.withdraw(id, reason);
    return ids.length;
  }

  withdrawAll(reason: WithdrawReason): void {
    for (const id of [...this.open.keys()]) this.withdraw(id, reason);
  }

  /** The unanswered requests of a session, oldest first. */
  openFor(sessionId: string): OpenRequestEntry[] {
    return [...this.open.values()]
      .filter((request) => request.session.id === sessionId)
      .map(({ id, method, params }) => ({ id, method, params: structuredClone(params) }));
  }

  useAnswerGate(gate: AnswerGate): () => void {
    this.gates.push(gate);
    return () => {
      const index = this.gates.indexOf(gate);
      if (index >= 0) this.gates.splice(index, 1);
    };
  }

  private withdraw(id: string, reason: WithdrawReason): void {
    const request = this.claim(id);
    if (!request) return;
    if (this.deps.contracts.notifications.has('request.cancel')) {
      this.deps.events.emit(request.session, 'request.cancel', { id: request.id, method: request.method, reason });
    }
    request.settle({ kind: 'withdrawn', reason });
  }

  /** Takes an open request out before anything else happens to it, so that an answer and a withdrawal cannot both win. */
  private claim(id: string): OpenRequest | undefined {
    const request = this.open.get(id);
    if (!request) return undefined;
    this.open.delete(id);
    this.deps.timers.cancel(request.timer);
    return request;
  }

  private deliver(request: OpenRequest, outcome: ServerRequestOutcome): void {
    const entry = { id: request.id, method: request.method, params: request.params };
    if (this.gates.some((gate) => gate(entry, outcome) === 'swallow')) return;
    request.settle(outcome);
  }

  private sampleParams(contract: MethodContract): Record<string, unknown> {
    if (contract.shape === 'whole-object') {
      const slot = contract.params[0];
      const value = slot ? this.deps.responder.valueOf(slot.schema, `server request ${contract.name}`) : {};
      return isObject(value) ? value : {};
    }
    const params: Record<string, unknown> = {};
    for (const descriptor of contract.params) {
      if (descriptor.name === 'session_id') continue;
      params[descriptor.name] = this.deps.responder.valueOf(descriptor.schema, `server request ${contract.name} ${descriptor.name}`);
    }
    return params;
  }
}
