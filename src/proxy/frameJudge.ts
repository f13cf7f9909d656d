import { JSON_RPC_DIALECT, type WireDialect } from '../../core/wireDialect.js';
import { isJsonObject, matchRpcIds, type RpcId } from '../../core/index.js';
import { withDeclaredErrors, type CodeProfile } from '../checks/codeProfile.js';
import { SchemaValidators } from '../contracts/schemaValidators.js';
import { exchangeOf, judgeAnswer, judgeSecondAnswer, judgeServerRequestAnswer } from './answerJudge.js';
import { judgeEvent, judgeServerRequest } from './eventJudge.js';
import type { FrameFinding, FrameSide, ObservedRequest } from './findings.js';
import type { FrameJudgeOptions, JudgeContext, SkewObservation } from './judgeContext.js';
import { JudgeTally, noneUnjudged, type JudgedCell, type UnjudgedCounts } from './judgeTally.js';
import { requestShape } from './requestShape.js';
import { WatchedConnection } from './watchedRequests.js';
import { readWireFrame } from './wireFrame.js';

export { CONNECTION_SUBJECT, SESSION_EVENTS_SUBJECT, type FrameJudgeOptions, type SkewObservation } from './judgeContext.js';
export type { JudgedCell, UnjudgedCounts } from './judgeTally.js';

/**
 * Judges the frames of watched connections as they pass, with the catalogue's checks and the same pure judges as
 * `run`: a request is classified against the server contract (and the client's), its answer is judged by the
 * check its class calls for, results by their schema, events by envelope, payload and per-session seq, server
 * requests by their declaration. Answers are attributed to requests by the client's id rule (`core/rpcId.ts`).
 * It never sees a socket: the relay hands it text and it returns findings.
 */
export class FrameStreamJudge implements JudgeContext {
  readonly unjudged: UnjudgedCounts = noneUnjudged();
  readonly reached = new Set<string>();
  readonly skew = new Map<string, SkewObservation>();
  readonly tally = new JudgeTally();
  readonly validators: SchemaValidators;
  readonly dialect: WireDialect;
  private readonly connections = new Map<string, WatchedConnection>();
  private readonly methodProfiles = new Map<string, CodeProfile>();
  private readonly clientValidators: SchemaValidators | undefined;
  private readonly maxJudgedChars: number;

  constructor(readonly options: FrameJudgeOptions) {
    this.validators = new SchemaValidators(options.server);
    this.dialect = options.dialect ?? JSON_RPC_DIALECT;
    this.clientValidators = options.client ? new SchemaValidators(options.client) : undefined;
    this.maxJudgedChars = options.maxJudgedChars ?? 8 * 1024 * 1024;
  }

  get cells(): JudgedCell[] {
    return this.tally.cells;
  }

  open(conn: string): void {
    this.connections.set(conn, new WatchedConnection());
  }

  isWireMethod(method: string): boolean {
    return this.options.inlineMethods?.includes(method) ?? false;
  }

  profileFor(method: string): CodeProfile {
    let profile = this.methodProfiles.get(method);
    if (!profile) {
      // Only the contract's methods are kept: a client sending undeclared names must not grow the map.
      const declared = this.options.server.method(method);
      if (!declared) return this.options.profile;
      profile = withDeclaredErrors(this.options.profile, declared.errors);
      this.methodProfiles.set(method, profile);
    }
    return profile;
  }

  /**
   * The connection ended. Requests the gateway left unanswered when it closed are judged as unanswered; those the
   * client abandoned by closing are only counted.
   */
  close(conn: string, by: FrameSide, code: number, at: number): FrameFinding[] {
    const state = this.connections.get(conn);
    this.connections.delete(conn);
    if (!state) return [];
    if (by === 'client') {
      this.unjudged.abandonedRequests += state.pending.size;
      return [];
    }
    const findings: FrameFinding[] = [];
    for (const entry of state.pending.values()) {
      const exchange = exchangeOf(conn, entry.request, at, 'none');
      exchange.failure = { code: 'CONNECTION_CLOSED', message: `the gateway closed the connection (${code}) before answering`, closeCode: code };
      findings.push(...judgeAnswer(this, conn, state, entry, exchange, at, `(connection closed ${code})`));
    }
    return findings;
  }

  frame(conn: string, side: FrameSide, text: string, at: number): FrameFinding[] {
    const state = this.connections.get(conn);
    if (!state) return [];
    const frame = readWireFrame(text, side, this.maxJudgedChars, this.unjudged);
    if (!frame) return [];
    return side === 'client' ? this.clientFrame(conn, state, frame, text, at) : this.serverFrame(conn, state, frame, text, at);
  }

  private clientFrame(conn: string, state: WatchedConnection, frame: Record<string, unknown>, text: string, at: number): FrameFinding[] {
    const method = frame['method'];
    if (typeof method === 'string') {
      if (!('id' in frame)) {
        this.unjudged.clientNotifications++;
        return [];
      }
      const request: ObservedRequest = { id: frame['id'] as RpcId, method, params: frame['params'], text, at, wellFormed: isRequestObject(frame) };
      const shape = this.isWireMethod(method) ? ({ kind: 'valid' } as const) : requestShape(this.options.server.method(method), request.params, this.validators);
      const clientShape = this.options.client && this.clientValidators ? requestShape(this.options.client.method(method), request.params, this.clientValidators) : undefined;
      const params = request.params;
      if (isJsonObject(params) && typeof params['session_id'] === 'string') state.liveSessions.add(params['session_id']);
      state.pending.add({ id: request.id, request, shape, ...(clientShape ? { clientShape } : {}) });
      return [];
    }
    if (!('id' in frame)) return [];
    const asked = state.takeServerRequest(frame['id']);
    if (!asked) {
      this.unjudged.unattributedAnswers++;
      return [];
    }
    const correlation = matchRpcIds(asked.id, frame['id']) === 'exact' ? 'exact' : 'loose';
    return judgeServerRequestAnswer(this, conn, asked, frame, text, at, correlation);
  }

  private serverFrame(conn: string, state: WatchedConnection, frame: Record<string, unknown>, text: string, at: number): FrameFinding[] {
    const method = frame['method'];
    if (this.dialect.claims(frame)) return judgeEvent(this, conn, state, frame, text, at);
    if (typeof method === 'string') return 'id' in frame ? judgeServerRequest(this, conn, state, frame, method, text, at) : [];
    const id = frame['id'];
    const taken = state.takeAnswered(id);
    if (!taken) {
      const answered = state.answeredMethod(id);
      if (answered !== undefined) return judgeSecondAnswer(this, conn, answered, id, text, at);
      this.unjudged.unattributedAnswers++;
      return [];
    }
    const exchange = exchangeOf(conn, taken.entry.request, at, taken.correlation);
    exchange.response = frame;
    exchange.responseText = text;
    return judgeAnswer(this, conn, state, taken.entry, exchange, at, text);
  }
}

/** The members JSON-RPC 2.0 §4 asks of a Request object with a string method: what a server may refuse as an Invalid Request otherwise. */
function isRequestObject(frame: Record<string, unknown>): boolean {
  const { id, params } = frame;
  const idOfItsType = id === null || typeof id === 'string' || typeof id === 'number';
  return frame['jsonrpc'] === '2.0' && idOfItsType && (params === undefined || (typeof params === 'object' && params !== null));
}
