import type { ContractSet } from './contract/contractSet.js';
import type { ContractChecker } from './contractChecker.js';
import type { GatewayConnection } from './gatewayConnection.js';
import type { HandlerContext, HandlerTable } from './handlers/handlerTypes.js';
import type { InboundGate } from './inboundGate.js';
import type { OutboundFunnel } from './outboundFunnel.js';
import type { ParamsAdmission } from './paramsAdmission.js';
import type { OutboundShapes } from './outboundShapes.js';
import type { SchemaAnswers } from './schemaAnswers.js';
import type { ServerRequests } from './serverRequests.js';
import { ErrorCode, GatewayError, OUT_OF_SYNC_SUFFIX } from './wireErrors.js';

type RequestId = string | number | null;
type Maybe<T> = T | Promise<T>;

const isThenable = (value: unknown): value is Promise<unknown> => typeof (value as { then?: unknown } | null | undefined)?.then === 'function';

interface Answer {
  readonly frame: Record<string, unknown>;
  readonly method?: string;
  readonly params?: unknown;
}

const PARSE_ERROR_FRAME = { jsonrpc: '2.0', error: { code: ErrorCode.PARSE_ERROR, message: 'parse error' }, id: null };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const ok = (id: RequestId, result: unknown): Record<string, unknown> => ({ jsonrpc: '2.0', id, result });
const err = (id: RequestId, code: number, message: string): Record<string, unknown> => ({ jsonrpc: '2.0', id, error: { code, message } });

/**
 * The admission order of spec §2.3: a response to a server request settles it, unanswered, then an unknown method
 * answers -32601, then the unknown-key check (4000 / -32602), then the contract check, then the handler (or the
 * schema-driven responder when the method has no Hermes handler). A crashing handler answers -32603.
 */
export interface DispatcherDeps {
  readonly contracts: ContractSet;
  readonly inbound: InboundGate;
  readonly funnel: OutboundFunnel;
  readonly checker: ContractChecker;
  readonly admission: ParamsAdmission;
  readonly schemaAnswers: SchemaAnswers;
  readonly shapes: OutboundShapes;
  readonly serverRequests: ServerRequests;
  readonly handlers: HandlerTable;
  /** v0.21.3 wording: no out-of-sync suffix on -32601. */
  readonly legacyMessages: boolean;
  readonly log: (line: string) => void;
}

export class Dispatcher {
  constructor(private readonly deps: DispatcherDeps) {}

  /** One text frame: one JSON value, surrounding whitespace (a trailing newline) tolerated, empty frames ignored. */
  async receive(connection: GatewayConnection, text: string): Promise<void> {
    const trimmed = text.trim();
    if (trimmed === '') return;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      this.parseError(connection);
      return;
    }
    const decision = this.deps.inbound.admit({ text: trimmed, value }, connection);
    if (decision === 'drop') return;
    if ('reply' in decision) {
      const request = isPlainObject(value) && typeof value['method'] === 'string' ? { method: value['method'], params: value['params'] } : {};
      this.deps.funnel.send(connection, { kind: 'response', frame: decision.reply, ...request });
      return;
    }
    const handled = this.handle(connection, decision.value);
    if (handled) await handled;
  }

  parseError(connection: GatewayConnection): void {
    this.deps.funnel.send(connection, { kind: 'response', frame: { ...PARSE_ERROR_FRAME, error: { ...PARSE_ERROR_FRAME.error } } });
  }

  /**
   * Answers one request. A handler that answers at once is replied to in the same turn, without a promise in between
   * (most handlers are synchronous); one that returns a promise is replied to when it settles.
   */
  private handle(connection: GatewayConnection, value: unknown): Promise<void> | undefined {
    const after: Array<() => void> = [];
    let answer: Maybe<Answer | undefined>;
    try {
      answer = this.answer(connection, value, after);
    } catch (error) {
      this.dispatchFailed(error);
      return undefined;
    }
    if (!isThenable(answer)) return this.reply(connection, answer, after);
    return answer.then(
      (settled) => this.reply(connection, settled, after),
      (error: unknown) => this.dispatchFailed(error),
    );
  }

  private dispatchFailed(error: unknown): void {
    this.deps.log(`dispatch failed: ${(error as Error).stack ?? String(error)}`);
  }

  private reply(connection: GatewayConnection, answer: Answer | undefined, after: Array<() => void>): undefined {
    if (answer) this.deps.funnel.send(connection, { kind: 'response', frame: answer.frame, ...(answer.method ? { method: answer.method, params: answer.params } : {}) });
    for (const task of after) {
      try {
        task();
      } catch (error) {
        this.deps.log(`post-reply task failed: ${(error as Error).stack ?? String(error)}`);
      }
    }
    return undefined;
  }

  private answer(connection: GatewayConnection, value: unknown, after: Array<() => void>): Maybe<Answer | undefined> {
    // The real gateway's answer to a malformed envelope is not documented (spec §8.4): this one answers
    // -32600 "invalid request", echoing the id when it is a valid JSON-RPC id, else null.
    if (!isPlainObject(value)) return { frame: err(null, ErrorCode.INVALID_REQUEST, 'invalid request') };
    // A response to a server→client request settles it (or is dropped: unknown id, duplicate, late); never answered.
    if (!('method' in value) && 'id' in value && ('result' in value || 'error' in value)) {
      this.deps.serverRequests.resolve(value);
      return undefined;
    }
    const hasId = 'id' in value;
    const rawId = value['id'];
    const idValid = rawId === null || typeof rawId === 'string' || (typeof rawId === 'number' && Number.isFinite(rawId));
    if (hasId && !idValid) return { frame: err(null, ErrorCode.INVALID_REQUEST, 'invalid request') };
    const id = hasId ? (rawId as RequestId) : null;
    const method = value['method'];
    if (value['jsonrpc'] !== '2.0' || typeof method !== 'string') return { frame: err(id, ErrorCode.INVALID_REQUEST, 'invalid request') };
    const params = value['params'];
    // A request without an id is a notification: it runs, and nothing is sent back.
    const answerOf = (frame: Record<string, unknown>): Answer | undefined => (hasId ? { frame, method, params } : undefined);
    const frame = this.call(connection, method, params, id, after);
    return isThenable(frame) ? frame.then(answerOf) : answerOf(frame);
  }

  private call(connection: GatewayConnection, method: string, rawParams: unknown, id: RequestId, after: Array<() => void>): Maybe<Record<string, unknown>> {
    if (method === 'gateway.ping') return ok(id, { ok: true });
    const contract = this.deps.contracts.methods.get(method);
    if (!contract) {
      const suffix = this.deps.legacyMessages ? '' : OUT_OF_SYNC_SUFFIX;
      return err(id, ErrorCode.METHOD_NOT_FOUND, `unknown method: ${method}${suffix}`);
    }
    const admitted = this.deps.admission.admit(contract, rawParams);
    if (!admitted.ok) return err(id, admitted.error.code, admitted.error.message);
    const handler = this.deps.handlers[method];
    const pending: Array<() => void> = [];
    const context: HandlerContext = { method, connection, afterReply: (task) => pending.push(task) };
    const finish = (produced: unknown): Record<string, unknown> => {
      let result: unknown;
      try {
        result = handler ? this.deps.shapes.result(contract, produced) : this.deps.schemaAnswers.answer(contract, admitted.params);
      } catch (error) {
        return this.handlerFailed(id, method, error);
      }
      if (result === undefined) result = null;
      const violation = this.deps.checker.checkResult(contract, result);
      if (violation && this.deps.checker.raisesOnResult) return err(id, ErrorCode.INTERNAL_ERROR, 'internal error');
      after.push(...pending);
      return ok(id, result);
    };
    let produced: unknown;
    try {
      produced = handler ? handler(admitted.params, context) : undefined;
    } catch (error) {
      return this.handlerFailed(id, method, error);
    }
    if (!isThenable(produced)) return finish(produced);
    return Promise.resolve(produced).then(finish, (error: unknown) => this.handlerFailed(id, method, error));
  }

  private handlerFailed(id: RequestId, method: string, error: unknown): Record<string, unknown> {
    if (error instanceof GatewayError) return err(id, error.code, error.message);
    this.deps.log(`handler ${method} crashed: ${(error as Error).stack ?? String(error)}`);
    return err(id, ErrorCode.INTERNAL_ERROR, 'internal error');
  }
}
