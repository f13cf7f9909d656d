import type { CheckId } from '../checks/checkCatalogue.js';
import { ENVELOPE_CHECKS, type EnvelopeCheckId } from '../checks/envelopeChecks.js';
import { checkEventEnvelope, checkEventPayload, checkSeqSequence } from '../checks/eventChecks.js';
import { classifyExchange, describeExchange } from '../checks/outcomeClass.js';
import { checkInvalidNotAccepted, checkUnknownKeyRejected, checkValidAccepted } from '../checks/paramsChecks.js';
import type { CodeProfile } from '../checks/codeProfile.js';
import { JSON_RPC_DIALECT, type WireDialect } from '../../core/wireDialect.js';
import { checkResultSchema } from '../checks/resultChecks.js';
import { violation, type Violation } from '../checks/violation.js';
import type { Contract, ContractMethod } from '../contracts/contractModel.js';
import { formatViolation, SchemaValidators, type SchemaViolation } from '../contracts/schemaValidators.js';
import { serverRequestProblems } from '../checks/serverRequestChecks.js';
import { isJsonObject, outcomeOf, type Correlation, type Exchange, type WireEvent, type JsonSchema, type RpcId } from '../../core/index.js';
import type { FrameFinding, FrameSide, ObservedRequest } from './findings.js';
import { dottedPathOf, requestShape, type RequestShape } from './requestShape.js';

export interface FrameJudgeOptions {
  server: Contract;
  /** The contract of the watched client, when known: what it may send. */
  client?: Contract;
  profile: CodeProfile;
  /** How the target carries events (default: plain JSON-RPC notifications). */
  dialect?: WireDialect;
  /** Methods the gateway answers before dispatch, without its contract (never judged against it). */
  inlineMethods?: readonly string[];
  /** Longer frames are relayed but not parsed (default 8 MiB). */
  maxJudgedChars?: number;
}

/** How many frames one cell judged. */
export interface JudgedCell {
  subject: string;
  check: CheckId;
  judged: number;
}

/** A request whose params break the server contract, and what the gateway made of it. */
export interface SkewObservation {
  method: string;
  path: string;
  /** Whether the request fits the client contract (undefined without one). */
  clientAllows?: boolean;
  answer: string;
  conn: string;
}

/** Frames that were relayed but that no check could judge, by reason. */
export interface UnjudgedCounts {
  clientNotJson: number;
  serverNotJson: number;
  batches: number;
  tooLarge: number;
  clientNotifications: number;
  unattributedAnswers: number;
  undeclaredEvents: Map<string, number>;
  /** Requests still unanswered when the client closed its connection. */
  abandonedRequests: number;
}

interface PendingRequest {
  request: ObservedRequest;
  shape: RequestShape;
  clientShape?: RequestShape;
}

interface PendingServerRequest {
  method: string;
  declared: ContractMethod | undefined;
  id: RpcId;
  params: unknown;
  text: string;
  at: number;
}

interface ConnectionState {
  pending: Map<string, PendingRequest>;
  /** Keys of answered requests (bounded), to recognise a second answer. */
  answered: Map<string, string>;
  serverPending: Map<string, PendingServerRequest>;
  lastEvent: Map<string, WireEvent>;
  createdHere: Set<string>;
  liveSessions: Set<string>;
}

type FindingBase = Pick<FrameFinding, 'conn' | 'subject' | 'kind' | 'at' | 'frame' | 'request' | 'answer'>;

const REMEMBERED_ANSWERS = 1_000;
export const SESSION_EVENTS_SUBJECT = '(session events)';
export const CONNECTION_SUBJECT = '(connection)';

const exactKey = (id: unknown): string => `${id === null ? 'null' : typeof id}:${String(id)}`;
const looseKey = (id: unknown): string => String(id);

const ENVELOPE_PATHS: Record<EnvelopeCheckId, string> = {
  'envelope.jsonrpc-version': 'jsonrpc',
  'envelope.id-echo': 'id',
  'envelope.result-xor-error': '(root)',
  'envelope.error-shape': 'error',
};

function parse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/**
 * Judges the frames of watched connections as they pass, with the catalogue's checks and the same pure judges as
 * `run`: a request is classified against the server contract (and the client's), its answer is judged by the
 * check its class calls for, results by their schema, events by envelope, payload and per-session seq, server
 * requests by their declaration. It never sees a socket: the relay hands it text and it returns findings.
 */
export class FrameStreamJudge {
  readonly unjudged: UnjudgedCounts = {
    clientNotJson: 0,
    serverNotJson: 0,
    batches: 0,
    tooLarge: 0,
    clientNotifications: 0,
    unattributedAnswers: 0,
    undeclaredEvents: new Map(),
    abandonedRequests: 0,
  };
  /** Methods that answered at least one success. */
  readonly reached = new Set<string>();
  readonly skew = new Map<string, SkewObservation>();
  private readonly connections = new Map<string, ConnectionState>();
  private readonly tally = new Map<string, JudgedCell>();
  private readonly validators: SchemaValidators;
  private readonly dialect: WireDialect;
  private readonly clientValidators: SchemaValidators | undefined;
  private readonly maxJudgedChars: number;

  constructor(private readonly options: FrameJudgeOptions) {
    this.validators = new SchemaValidators(options.server);
    this.dialect = options.dialect ?? JSON_RPC_DIALECT;
    this.clientValidators = options.client ? new SchemaValidators(options.client) : undefined;
    this.maxJudgedChars = options.maxJudgedChars ?? 8 * 1024 * 1024;
  }

  get cells(): JudgedCell[] {
    return [...this.tally.values()];
  }

  open(conn: string): void {
    this.connections.set(conn, { pending: new Map(), answered: new Map(), serverPending: new Map(), lastEvent: new Map(), createdHere: new Set(), liveSessions: new Set() });
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
      const exchange = this.exchangeOf(conn, entry.request, at, 'none');
      exchange.failure = { code: 'CONNECTION_CLOSED', message: `the gateway closed the connection (${code}) before answering`, closeCode: code };
      findings.push(...this.judgeAnswer(conn, state, entry, exchange, at, `(connection closed ${code})`));
    }
    return findings;
  }

  frame(conn: string, side: FrameSide, text: string, at: number): FrameFinding[] {
    const state = this.connections.get(conn);
    if (!state) return [];
    if (text.length > this.maxJudgedChars) {
      this.unjudged.tooLarge++;
      return [];
    }
    const parsed = parse(text);
    if (!parsed.ok) {
      if (side === 'client') this.unjudged.clientNotJson++;
      else this.unjudged.serverNotJson++;
      return [];
    }
    if (Array.isArray(parsed.value)) {
      this.unjudged.batches++;
      return [];
    }
    if (!isJsonObject(parsed.value)) {
      if (side === 'client') this.unjudged.clientNotJson++;
      else this.unjudged.serverNotJson++;
      return [];
    }
    return side === 'client' ? this.clientFrame(conn, state, parsed.value, text, at) : this.serverFrame(conn, state, parsed.value, text, at);
  }

  private count(subject: string, check: CheckId): void {
    const key = `${subject}\u0000${check}`;
    const cell = this.tally.get(key);
    if (cell) cell.judged++;
    else this.tally.set(key, { subject, check, judged: 1 });
  }

  private apply(
    base: FindingBase,
    check: CheckId,
    violations: readonly Violation[],
    path: string | (() => string),
    skew?: FrameFinding['skew'],
  ): FrameFinding[] {
    this.count(base.subject, check);
    if (violations.length === 0) return [];
    const where = typeof path === 'string' ? path : path();
    return violations.map((v) => ({ ...base, check, path: where, message: v.message, ...(skew ? { skew } : {}) }));
  }

  // ---- frames the client sends

  private clientFrame(conn: string, state: ConnectionState, frame: Record<string, unknown>, text: string, at: number): FrameFinding[] {
    const method = frame['method'];
    if (typeof method === 'string') {
      if (!('id' in frame)) {
        this.unjudged.clientNotifications++;
        return [];
      }
      const request: ObservedRequest = { id: frame['id'] as RpcId, method, params: frame['params'], text, at };
      const shape = this.isWireMethod(method) ? ({ kind: 'valid' } as const) : requestShape(this.options.server.method(method), request.params, this.validators);
      const clientShape = this.options.client && this.clientValidators ? requestShape(this.options.client.method(method), request.params, this.clientValidators) : undefined;
      const params = request.params;
      if (isJsonObject(params) && typeof params['session_id'] === 'string') state.liveSessions.add(params['session_id']);
      state.pending.set(exactKey(request.id), { request, shape, ...(clientShape ? { clientShape } : {}) });
      return [];
    }
    if (!('id' in frame)) return [];
    const key = exactKey(frame['id']);
    const asked = state.serverPending.get(key) ?? [...state.serverPending.values()].find((p) => looseKey(p.id) === looseKey(frame['id']));
    if (!asked) {
      this.unjudged.unattributedAnswers++;
      return [];
    }
    state.serverPending.delete(exactKey(asked.id));
    return this.judgeServerRequestAnswer(conn, asked, frame, text, at);
  }

  /** A method the gateway answers inline, before dispatch and without its contract. */
  private isWireMethod(method: string): boolean {
    return this.options.inlineMethods?.includes(method) ?? false;
  }

  private judgeServerRequestAnswer(conn: string, asked: PendingServerRequest, frame: Record<string, unknown>, text: string, at: number): FrameFinding[] {
    const exchange: Exchange = {
      conn,
      method: asked.method,
      id: asked.id,
      params: asked.params,
      requestText: asked.text,
      elapsedMs: at - asked.at,
      response: frame,
      responseText: text,
      correlation: exactKey(frame['id']) === exactKey(asked.id) ? 'exact' : 'loose',
    };
    const base = { conn, subject: asked.method, kind: 'server-request-answer' as const, at, frame: text };
    const findings: FrameFinding[] = [];
    for (const [check, judge] of Object.entries(ENVELOPE_CHECKS) as Array<[EnvelopeCheckId, (e: Exchange) => Violation[]]>) {
      findings.push(...this.apply(base, check, judge(exchange), ENVELOPE_PATHS[check]));
    }
    const resultSchema = asked.declared?.resultSchema;
    if (resultSchema && outcomeOf(exchange).kind === 'result') findings.push(...this.resultFindings(base, exchange, resultSchema));
    return findings;
  }

  // ---- frames the gateway sends

  private serverFrame(conn: string, state: ConnectionState, frame: Record<string, unknown>, text: string, at: number): FrameFinding[] {
    const method = frame['method'];
    if (this.dialect.claims(frame)) return this.judgeEvent(conn, state, frame, text, at);
    if (typeof method === 'string') return 'id' in frame ? this.judgeServerRequest(conn, state, frame, method, text, at) : [];
    const id = frame['id'];
    const exactly = state.pending.get(exactKey(id));
    let key = exactly ? exactKey(id) : undefined;
    let correlation: Correlation = 'exact';
    if (!key) {
      const loose = [...state.pending.entries()].find(([, entry]) => looseKey(entry.request.id) === looseKey(id) && id !== null);
      if (loose) {
        key = loose[0];
        correlation = 'loose';
      } else if (state.pending.size === 1) {
        key = [...state.pending.keys()][0];
        correlation = 'sole-pending';
      }
    }
    if (!key) return this.secondAnswer(conn, state, id, text, at);
    const entry = state.pending.get(key) as PendingRequest;
    state.pending.delete(key);
    state.answered.set(exactKey(id), entry.request.method);
    if (state.answered.size > REMEMBERED_ANSWERS) state.answered.delete(state.answered.keys().next().value as string);
    const exchange = this.exchangeOf(conn, entry.request, at, correlation);
    exchange.response = frame;
    exchange.responseText = text;
    return this.judgeAnswer(conn, state, entry, exchange, at, text);
  }

  /** An answer whose id was answered before: each request gets exactly one response (`envelope.id-echo`, as in `run`). */
  private secondAnswer(conn: string, state: ConnectionState, id: unknown, text: string, at: number): FrameFinding[] {
    const method = state.answered.get(exactKey(id));
    if (!method) {
      this.unjudged.unattributedAnswers++;
      return [];
    }
    const message = `${method}: request id ${JSON.stringify(id)} was answered again (${text.slice(0, 200)}); each request gets exactly one response`;
    return this.apply({ conn, subject: method, kind: 'answer', at, frame: text }, 'envelope.id-echo', [violation('envelope.id-echo', message, id as RpcId)], 'id');
  }

  private exchangeOf(conn: string, request: ObservedRequest, at: number, correlation: Correlation): Exchange {
    return { conn, method: request.method, id: request.id, params: request.params, requestText: request.text, elapsedMs: at - request.at, correlation };
  }

  private judgeAnswer(conn: string, state: ConnectionState, entry: PendingRequest, exchange: Exchange, at: number, frame: string): FrameFinding[] {
    const { request, shape, clientShape } = entry;
    const { profile, server, client } = this.options;
    const base = { conn, subject: request.method, kind: 'answer' as const, at, frame, request, ...(exchange.responseText !== undefined ? { answer: exchange.responseText } : {}) };
    const findings: FrameFinding[] = [];
    if (shape.kind === 'undeclared') return this.judgeUndeclared(base, exchange, clientShape);
    if (exchange.response) {
      for (const [check, judge] of Object.entries(ENVELOPE_CHECKS) as Array<[EnvelopeCheckId, (e: Exchange) => Violation[]]>) {
        findings.push(...this.apply(base, check, judge(exchange), ENVELOPE_PATHS[check]));
      }
    }
    const outcome = outcomeOf(exchange);
    if (outcome.kind === 'result') {
      this.reached.add(request.method);
      const created = isJsonObject(outcome.result) ? outcome.result['session_id'] : undefined;
      const asked = isJsonObject(request.params) ? request.params['session_id'] : undefined;
      if (typeof created === 'string') {
        state.liveSessions.add(created);
        if (created !== asked && !state.lastEvent.has(created)) state.createdHere.add(created);
      }
    }
    if (this.isWireMethod(request.method)) return findings;
    const requestBase = { ...base, kind: 'request' as const, frame: request.text };
    switch (shape.kind) {
      case 'valid':
        findings.push(...this.apply(base, 'params.valid-accepted', checkValidAccepted(exchange, profile), '(root)'));
        break;
      case 'unknown-key': {
        const named = shape.paths.find((path) => checkUnknownKeyRejected(exchange, path, profile).length === 0);
        const path = named ?? shape.paths[0] ?? '(root)';
        findings.push(...this.apply(base, 'params.unknown-key-rejected', named ? [] : checkUnknownKeyRejected(exchange, path, profile), path));
        break;
      }
      case 'invalid': {
        const described = shape.problems.slice(0, 3).map(formatViolation).join('; ');
        findings.push(...this.apply(base, 'params.invalid-not-accepted', checkInvalidNotAccepted(exchange, described), shape.paths[0] ?? '(root)'));
        break;
      }
    }
    const method = server.method(request.method);
    if (method?.resultSchema && outcome.kind === 'result') findings.push(...this.resultFindings(base, exchange, method.resultSchema));
    if (shape.kind !== 'valid') {
      const path = shape.paths[0] ?? '(root)';
      const clientAllows = clientShape ? clientShape.kind === 'valid' : undefined;
      this.skew.set(`${request.method}.${path}`, { method: request.method, path, ...(clientAllows !== undefined ? { clientAllows } : {}), answer: describeExchange(exchange), conn });
      if (clientAllows !== false) {
        const kind = classifyExchange(exchange, profile);
        const refused = kind === 'contract-rejection' || kind === 'unknown-method';
        const who = client ? `clients on ${client.title} ${client.version}` : 'clients that send what this client sends (pass --client-contract to name their version)';
        const line = `${request.method}.${path} (${describeExchange(exchange)})`;
        const found = refused ? [violation('skew.client-contract', `${who} would break: ${line}`, request.id)] : [];
        findings.push(...this.apply(requestBase, 'skew.client-contract', found, path, { method: request.method, path }));
        return findings;
      }
    }
    if (client && clientShape) findings.push(...this.clientOwnContract(requestBase, clientShape));
    return findings;
  }

  /** With --client-contract: a request its own contract does not allow is a client defect, not skew. */
  private clientOwnContract(base: FindingBase, clientShape: RequestShape): FrameFinding[] {
    const client = this.options.client as Contract;
    if (clientShape.kind === 'valid') return this.apply(base, 'skew.client-contract', [], '(root)');
    const what = clientShape.kind === 'undeclared' ? 'a method it does not declare' : `params it does not allow: ${clientShape.problems.slice(0, 3).map(formatViolation).join('; ')}`;
    const message = `${base.subject}: the client sent ${what}, by its own contract (${client.title} ${client.version})`;
    return this.apply(base, 'skew.client-contract', [violation('skew.client-contract', message)], clientShape.kind === 'undeclared' ? '(root)' : (clientShape.paths[0] ?? '(root)'));
  }

  /** A method the server contract does not declare must be answered -32601 (`envelope.unknown-method`). */
  private judgeUndeclared(base: FindingBase & { request: ObservedRequest }, exchange: Exchange, clientShape: RequestShape | undefined): FrameFinding[] {
    const { profile, client } = this.options;
    const method = base.request.method;
    const outcome = outcomeOf(exchange);
    const problems: Violation[] = [];
    if (outcome.kind !== 'error' || outcome.code !== -32601) {
      problems.push(violation('envelope.unknown-method', `${method} (undeclared by the server contract): expected -32601, got ${describeExchange(exchange)}`, base.request.id));
    } else if (!profile.unknownMethodMessageMatches(method, outcome.message)) {
      problems.push(violation('envelope.unknown-method', `${method}: -32601 message "${outcome.message}" is not "unknown method: ${method}" (with or without the out-of-sync suffix)`, base.request.id));
    }
    const findings = this.apply({ ...base, subject: CONNECTION_SUBJECT }, 'envelope.unknown-method', problems, 'method');
    if (client && clientShape && clientShape.kind !== 'undeclared') {
      this.skew.set(method, { method, path: '', clientAllows: true, answer: describeExchange(exchange), conn: base.conn });
      const refused = classifyExchange(exchange, profile) === 'unknown-method';
      const found = refused ? [violation('skew.client-contract', `clients on ${client.title} ${client.version} would break: ${method} (${describeExchange(exchange)})`, base.request.id)] : [];
      findings.push(...this.apply({ ...base, kind: 'request', frame: base.request.text }, 'skew.client-contract', found, '(root)', { method, path: '' }));
    }
    return findings;
  }

  private resultFindings(base: FindingBase, exchange: Exchange, schema: JsonSchema): FrameFinding[] {
    const seen: SchemaViolation[] = [];
    const checker = this.validators.checker(schema);
    const violations = checkResultSchema(exchange, (value) => {
      const problems = checker(value);
      seen.push(...problems);
      return problems;
    });
    return this.apply(base, 'result.schema', violations, () => (seen[0] ? dottedPathOf(seen[0], 'result') : 'result'));
  }

  private judgeEvent(conn: string, state: ConnectionState, frame: Record<string, unknown>, text: string, at: number): FrameFinding[] {
    const params = (this.dialect.readEvent(frame) ?? {}) as WireEvent;
    const type = typeof params.type === 'string' ? params.type : '(no type)';
    const base = { conn, subject: type, kind: 'event' as const, at, frame: text };
    const findings = this.apply(base, 'event.envelope', checkEventEnvelope(frame, this.dialect), () => this.dialect.envelopeProblems(frame)[0]?.member ?? '(root)');
    const declared = this.options.server.event(type);
    if (declared) {
      findings.push(
        ...this.apply(base, 'event.payload-schema', checkEventPayload(params as WireEvent, declared, this.validators), () => {
          const first = declared.payloadSchema && params.payload !== undefined ? this.validators.check(declared.payloadSchema, params.payload)[0] : undefined;
          return first ? dottedPathOf(first, 'payload') : 'payload';
        }),
      );
    } else if (typeof params.type === 'string') {
      this.unjudged.undeclaredEvents.set(type, (this.unjudged.undeclaredEvents.get(type) ?? 0) + 1);
    }
    const session = params.session_id;
    if (typeof session === 'string' && session !== '' && typeof params.seq === 'number') {
      state.liveSessions.add(session);
      const last = state.lastEvent.get(session);
      const violations = last ? checkSeqSequence([last, params]) : checkSeqSequence([params], state.createdHere);
      findings.push(...this.apply({ ...base, subject: SESSION_EVENTS_SUBJECT }, 'event.seq-monotonic', violations, 'params.seq'));
      state.lastEvent.set(session, params);
    }
    return findings;
  }

  private judgeServerRequest(conn: string, state: ConnectionState, frame: Record<string, unknown>, method: string, text: string, at: number): FrameFinding[] {
    const server = this.options.server;
    const declared = server.serverRequests.find((request) => request.name === method);
    const id = frame['id'] as RpcId;
    state.serverPending.set(exactKey(id), { method, declared, id, params: frame['params'], text, at });
    const base = { conn, subject: method, kind: 'server-request' as const, at, frame: text };
    const problems = declared
      ? serverRequestProblems(frame, { request: declared, validators: this.validators }, state.liveSessions)
      : [`the server contract (${server.title} ${server.version}) declares no server request ${method}`];
    const path = (): string => {
      if (!declared) return 'method';
      const first = this.validators.check(declared.paramsSchema, frame['params'])[0];
      return first ? dottedPathOf(first, 'params') : typeof frame['id'] !== 'string' ? 'id' : 'params.session_id';
    };
    return this.apply(base, 'server-request.envelope', problems.map((problem) => violation('server-request.envelope', `${method}: ${problem}`, id)), path);
  }
}
