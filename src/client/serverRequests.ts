import { isJsonObject, JsonRpcErrorCode, type JsonValue, type RpcId } from '../../core/index.js';
import type { Clock } from './clock.js';

export interface ServerRequest {
  id: RpcId;
  method: string;
  params: JsonValue | undefined;
}

export type ServerRequestAnswer = { result: JsonValue } | { error: { code: number; message: string; data?: JsonValue } };

/** Answers a request the server sent to the client; the protocol bounds how long it may take. */
export type ServerRequestHandler = (request: ServerRequest) => Promise<ServerRequestAnswer>;

/** Without a handler: answer -32601 (never leave the server waiting), or ignore on purpose (scenarios). */
export type UnhandledServerRequests = 'reject' | 'ignore';

export type ServerRequestStatus = 'open' | 'answered' | 'rejected' | 'ignored' | 'handler-failed' | 'handler-timeout';

export interface ServerRequestRecord {
  /** The whole request frame, as received. */
  frame: Record<string, unknown>;
  id: JsonValue;
  method: string;
  receivedAt: number;
  status: ServerRequestStatus;
  /** What the client answered (also when the connection had closed and it could not be sent). */
  answer?: ServerRequestAnswer;
  answeredAt?: number;
  /** False when the answer was due after the connection closed. */
  sent?: boolean;
  /** Why the handler's answer was replaced by an error. */
  note?: string;
}

export const DEFAULT_SERVER_REQUEST_TIMEOUT_MS = 5_000;
const MAX_SERVER_REQUESTS_KEPT = 1_000;

export interface ServerRequestsOptions {
  clock: Clock;
  handler: ServerRequestHandler | undefined;
  unhandled: UnhandledServerRequests;
  timeoutMs: number;
  /** Sends a frame if the connection is open; false when it is not. */
  send: (text: string) => boolean;
  note: (text: string) => void;
  redact: (text: string) => string;
}

function internalError(message: string): ServerRequestAnswer {
  return { error: { code: JsonRpcErrorCode.INTERNAL_ERROR, message } };
}

/** Returns the answer when it is one the wire can carry, else undefined. */
function wellFormed(answer: unknown): ServerRequestAnswer | undefined {
  if (!isJsonObject(answer)) return undefined;
  if ('result' in answer && answer['result'] !== undefined && !('error' in answer)) return { result: answer['result'] };
  const error = answer['error'];
  if (!('result' in answer) && isJsonObject(error) && Number.isInteger(error['code']) && typeof error['message'] === 'string') {
    return { error: { code: error['code'] as number, message: error['message'], ...(error['data'] !== undefined ? { data: error['data'] } : {}) } };
  }
  return undefined;
}

/** Requests the server sent on one connection: each one recorded, handed to the handler, and answered once. */
export class ServerRequests {
  /** The first 1 000 server requests of the connection. */
  readonly log: ServerRequestRecord[] = [];
  /** Server requests beyond those, counted only (they are answered all the same). */
  dropped = 0;
  /** Server requests the client has not answered (yet, or ever: ignored ones). */
  unanswered = 0;

  constructor(private readonly options: ServerRequestsOptions) {}

  receive(frame: Record<string, unknown>): void {
    const method = frame['method'] as string;
    const record: ServerRequestRecord = { frame, id: frame['id'] as JsonValue, method, receivedAt: this.options.clock.now(), status: 'open' };
    if (this.log.length < MAX_SERVER_REQUESTS_KEPT) this.log.push(record);
    else this.dropped++;
    this.unanswered++;
    const { handler } = this.options;
    if (!handler) {
      if (this.options.unhandled === 'ignore') record.status = 'ignored';
      else this.answer(record, 'rejected', { error: { code: JsonRpcErrorCode.METHOD_NOT_FOUND, message: 'the client does not handle server requests' } });
      return;
    }
    const { timeoutMs, clock } = this.options;
    let settled = false;
    const finish = (status: ServerRequestStatus, answer: ServerRequestAnswer, note?: string): void => {
      if (settled) return;
      settled = true;
      clock.clearTimeout(timer);
      if (note !== undefined) {
        record.note = note;
        this.options.note(`server request ${JSON.stringify(record.id)} ${method}: ${note}`);
      }
      this.answer(record, status, answer);
    };
    const timer = clock.setTimeout(() => {
      const message = `the client's handler for ${method} did not answer within ${timeoutMs} ms`;
      finish('handler-timeout', internalError(message), message);
    }, timeoutMs);
    const request: ServerRequest = { id: record.id as RpcId, method, params: frame['params'] as JsonValue | undefined };
    let answered: Promise<ServerRequestAnswer>;
    try {
      answered = Promise.resolve(handler(request));
    } catch (error) {
      answered = Promise.reject(error);
    }
    answered.then(
      (answer) => {
        const valid = wellFormed(answer);
        if (valid) finish('answered', valid);
        else {
          const message = `the client's handler for ${method} returned neither a result nor a JSON-RPC error`;
          finish('handler-failed', internalError(message), message);
        }
      },
      (error: unknown) => {
        const message = `the client's handler for ${method} failed: ${this.options.redact(error instanceof Error ? error.message : String(error))}`;
        finish('handler-failed', internalError(message), message);
      },
    );
  }

  private answer(record: ServerRequestRecord, status: ServerRequestStatus, answer: ServerRequestAnswer): void {
    this.unanswered--;
    record.status = status;
    record.answer = answer;
    record.answeredAt = this.options.clock.now();
    record.sent = this.options.send(JSON.stringify({ jsonrpc: '2.0', id: record.id, ...answer }));
  }
}
