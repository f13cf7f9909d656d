import { type Exchange, type ExchangeFailure, isJsonObject, matchRpcIds, rpcIdKey, type RpcId } from '../../core/index.js';
import { AnsweredRequests } from './answeredRequests.js';
import { type Clock, systemClock } from './clock.js';
import { clipText, MAX_KEPT_TEXT } from './clipText.js';
import { EventLog } from './eventLog.js';
import type { FlowSlot } from './flowControl.js';
import { type PendingRequest, PendingRequests } from './pendingRequests.js';
import type { Redactor } from './redact.js';
import {
  DEFAULT_MAX_EVENT_CHARS,
  DEFAULT_MAX_EVENTS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  MAX_TRANSCRIBED_EVENTS,
  type ProtocolOptions,
} from './rpcClientOptions.js';
import { DEFAULT_SERVER_REQUEST_TIMEOUT_MS, type ServerRequestRecord, ServerRequests } from './serverRequests.js';
import { StrayFrames } from './strayFrames.js';
import type { Transcript } from './transcript.js';
import type { Transport, TransportClose, TransportFrame } from './transport.js';
import { JSON_RPC_DIALECT, type WireDialect } from '../../core/wireDialect.js';

export interface CloseInfo {
  code: number;
  reason: string;
}

export interface CallOptions {
  id?: RpcId;
  timeoutMs?: number;
  /** `JSON.stringify(params)`, when the caller has it (made more cheaply than the request's own serialisation). */
  paramsText?: string;
}

type Request = Pick<PendingRequest, 'id' | 'method' | 'params' | 'requestText'>;

/**
 * JSON-RPC over any transport: ids, open requests and how answers are matched to them, repeated and late
 * answers, timeouts, events, stray frames, server→client requests and the transcript. It never lets a hostile
 * target hang a caller: every call resolves with an exchange, whatever the target does.
 */
export class RpcProtocol {
  readonly name: string;
  readonly events: EventLog;
  readonly closed: Promise<CloseInfo>;
  private readonly clock: Clock;
  /** How notifications are read as events. */
  readonly dialect: WireDialect;
  private readonly pending = new PendingRequests();
  private readonly answered = new AnsweredRequests();
  private readonly stray: StrayFrames;
  private readonly server: ServerRequests;
  /** Requests waiting for a flow-control slot; aborted when the connection closes. */
  private readonly queued = new Set<AbortController>();
  private counter = 0;
  private serials = 0;
  /** A request timed out: its answer may still come. */
  private lateAnswerPossible = false;
  /** Frames sent as is (junk, notifications): what they provoke is not tracked. */
  private rawFrames = 0;
  private closeInfo: CloseInfo | undefined;
  private transcribedEvents = 0;
  /** The long frame being handled and its cut: the transcript and the exchange share one copy of it. */
  private clipping: { text: string; kept: string } | undefined;
  private resolveClosed!: (info: CloseInfo) => void;

  constructor(
    readonly transport: Transport,
    readonly transcript: Transcript,
    readonly redactor: Redactor,
    private readonly options: ProtocolOptions = {},
  ) {
    this.name = options.name ?? 'c1';
    this.dialect = options.dialect ?? JSON_RPC_DIALECT;
    this.clock = options.clock ?? systemClock;
    this.events = new EventLog(options.maxEvents ?? DEFAULT_MAX_EVENTS, options.maxEventChars ?? DEFAULT_MAX_EVENT_CHARS, this.clock);
    this.stray = new StrayFrames(this.clock);
    this.server = new ServerRequests({
      clock: this.clock,
      handler: options.answerServerRequest,
      unhandled: options.unhandledServerRequests ?? 'reject',
      timeoutMs: options.serverRequestTimeoutMs ?? DEFAULT_SERVER_REQUEST_TIMEOUT_MS,
      send: (text) => {
        if (!this.isOpen) return false;
        this.send(text);
        return true;
      },
      note: (text) => this.note(text),
      redact: (text) => redactor.redact(text),
    });
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    transport.onFrame((frame) => this.onTransportFrame(frame));
    transport.onNote((text) => this.note(text));
    transport.onClose((info) => this.onClosed(info));
  }

  get isOpen(): boolean {
    return this.closeInfo === undefined && this.transport.isOpen;
  }

  get closeState(): CloseInfo | undefined {
    return this.closeInfo;
  }

  /** Frames that matched no request (unknown ids, late or repeated answers, unparseable text); the first 1 000. */
  get strayFrames(): string[] {
    return this.stray.frames;
  }

  /** Stray frames beyond the first 1 000, counted only. */
  get strayDropped(): number {
    return this.stray.dropped;
  }

  /** Requests the server sent to the client (the first 1 000), with what was answered. */
  get serverRequests(): ServerRequestRecord[] {
    return this.server.log;
  }

  nextId(): string {
    return `${this.options.idPrefix ?? 'r'}${++this.counter}`;
  }

  /** Sends a request and resolves with the exchange (never rejects: timeouts and closes are recorded as failures). */
  call(method: string, params?: unknown, options: CallOptions = {}): Promise<Exchange> {
    const id = options.id === undefined ? this.nextId() : options.id;
    let requestText: string;
    if (params !== undefined && options.paramsText !== undefined) {
      // The text JSON.stringify gives the frame below, its members in the same order.
      requestText = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":${JSON.stringify(method)},"params":${options.paramsText}}`;
    } else {
      const frame: Record<string, unknown> = { jsonrpc: '2.0', id, method };
      if (params !== undefined) frame['params'] = params;
      requestText = JSON.stringify(frame);
    }
    const request: Request = { id, method, params, requestText };
    const timeoutMs = options.timeoutMs ?? this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const flow = this.options.flowControl;
    if (!this.isOpen) return Promise.resolve(this.notSent(request));
    if (!flow) return this.dispatch(request, timeoutMs, undefined);
    const slot = flow.tryAcquire();
    if (slot) return this.dispatch(request, timeoutMs, slot);
    const waiting = new AbortController();
    this.queued.add(waiting);
    return flow.acquire(waiting.signal).then((granted) => {
      this.queued.delete(waiting);
      if (granted && this.isOpen) return this.dispatch(request, timeoutMs, granted);
      granted?.release('closed');
      return this.notSent(request);
    });
  }

  /** Sends text as is (junk frames, notifications). */
  sendRaw(text: string): void {
    this.rawFrames++;
    this.send(text);
  }

  /** Waits for the next frame that is neither an event nor a response to an open request; undefined on timeout or close. */
  nextStrayFrame(timeoutMs: number): Promise<string | undefined> {
    return this.stray.next(timeoutMs, this.isOpen);
  }

  /**
   * Nothing this connection started can still arrive: every request answered in time, no frame sent as is, no
   * stray frame, every server request answered. Only then may a transport hand its target to the next connection.
   */
  get quiet(): boolean {
    return this.pending.size === 0 && this.queued.size === 0 && !this.lateAnswerPossible && this.rawFrames === 0 && this.stray.frames.length === 0 && this.stray.dropped === 0 && this.server.unanswered === 0;
  }

  /** Clean close; resolves once the transport finished closing (or, when it can and the connection is quiet, kept its target for the next one). */
  async close(code = 1000, reason = ''): Promise<CloseInfo> {
    if (this.closeInfo) return this.closeInfo;
    if (this.quiet && this.transport.keepForReuse?.()) return this.closed;
    await this.transport.close(code, reason);
    return this.closed;
  }

  /** Abnormal drop: no close handshake. */
  terminate(): void {
    this.transport.terminate();
  }

  private dispatch(request: Request, timeoutMs: number, slot: FlowSlot | undefined): Promise<Exchange> {
    return new Promise((resolve) => {
      const entry: PendingRequest = {
        id: request.id,
        key: rpcIdKey(request.id),
        method: request.method,
        params: request.params,
        requestText: request.requestText,
        serial: ++this.serials,
        started: this.clock.now(),
        slot,
        resolve,
        timer: undefined,
      };
      entry.timer = this.clock.setTimeout(() => {
        this.lateAnswerPossible = true;
        this.settle(entry, { failure: { code: 'REQUEST_TIMEOUT', message: `[REQUEST_TIMEOUT] ${request.method} did not answer within ${timeoutMs} ms` } });
      }, timeoutMs);
      this.answered.forget(request.id, entry.key);
      this.pending.add(entry);
      this.send(request.requestText, entry.serial);
    });
  }

  private notSent(request: Request): Exchange {
    const failure: ExchangeFailure = {
      code: 'CONNECTION_CLOSED',
      message: `[CONNECTION_CLOSED] cannot send ${request.method}: the connection is closed (code ${this.closeInfo?.code ?? 'n/a'})`,
      ...(this.closeInfo ? { closeCode: this.closeInfo.code, closeReason: this.closeInfo.reason } : {}),
    };
    return this.exchangeOf({ ...request, started: this.clock.now() }, { failure });
  }

  private send(text: string, replyTo?: number): void {
    this.transcript.record('>>', this.name, text);
    this.transport.send(text, replyTo);
  }

  private note(text: string): void {
    this.transcript.record('--', this.name, this.redactor.redact(text));
  }

  private exchangeOf(entry: Request & { started: number }, extra: Partial<Exchange>): Exchange {
    return { conn: this.name, method: entry.method, id: entry.id, params: entry.params, requestText: entry.requestText, elapsedMs: this.clock.now() - entry.started, correlation: 'none', ...extra };
  }

  private settle(entry: PendingRequest, extra: Partial<Exchange>): void {
    if (!this.pending.delete(entry)) return;
    this.finish(entry, this.exchangeOf(entry, extra.responseText === undefined ? extra : { ...extra, responseText: this.clip(extra.responseText) }));
  }

  /** settle() for an answer matched by its id, the exchange built field by field (same fields, same order). */
  private settleAnswer(entry: PendingRequest, response: Record<string, unknown>, text: string, correlation: 'exact' | 'loose'): void {
    if (!this.pending.delete(entry)) return;
    const exchange: Exchange = {
      conn: this.name,
      method: entry.method,
      id: entry.id,
      params: entry.params,
      requestText: entry.requestText,
      elapsedMs: this.clock.now() - entry.started,
      correlation,
      response,
      responseText: this.clip(text),
    };
    this.finish(entry, exchange);
  }

  private finish(entry: PendingRequest, exchange: Exchange): void {
    this.clock.clearTimeout(entry.timer);
    this.answered.remember(exchange, entry.key);
    this.transport.cancel?.(entry.serial);
    const code = exchange.failure?.code;
    entry.slot?.release(code === 'REQUEST_TIMEOUT' ? 'timeout' : code === 'CONNECTION_CLOSED' ? 'closed' : 'answered');
    entry.resolve(exchange);
  }

  private onTransportFrame(frame: TransportFrame): void {
    const entry = frame.replyTo === undefined ? undefined : this.pending.get(frame.replyTo);
    if ('undelivered' in frame) {
      if (entry) this.settle(entry, { failure: { code: 'CONNECTION_CLOSED', message: `[CONNECTION_CLOSED] ${this.redactor.redact(frame.undelivered)}` } });
      return;
    }
    try {
      if (entry) this.onReply(entry, frame.text);
      else this.onFrame(frame.text);
    } finally {
      this.clipping = undefined;
    }
  }

  /** clipText, computed once per received frame. */
  private clip(text: string): string {
    if (text.length <= MAX_KEPT_TEXT) return text;
    if (this.clipping?.text !== text) this.clipping = { text, kept: clipText(text) };
    return this.clipping.kept;
  }

  private transcribeReceived(text: string): void {
    this.transcript.record('<<', this.name, text, this.clip(text));
  }

  /** The transport says which request this answers (an HTTP POST's body): no correlation by id is needed. */
  private onReply(entry: PendingRequest, text: string): void {
    this.transcribeReceived(text);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!isJsonObject(parsed)) {
      this.settle(entry, { responseText: text, failure: { code: 'UNPARSEABLE_FRAME', message: `[UNPARSEABLE_FRAME] ${entry.method} answered with a body that is not a JSON-RPC object` } });
      return;
    }
    const id = parsed['id'];
    const match = matchRpcIds(entry.id, id);
    const correlation = match === 'none' ? 'sole-pending' : match;
    this.settle(entry, { response: parsed, responseText: text, correlation });
  }

  private onFrame(text: string): void {
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      this.transcribeReceived(text);
      this.onStray(text, { failure: { code: 'UNPARSEABLE_FRAME', message: `[UNPARSEABLE_FRAME] the target answered with text that is not JSON: ${JSON.stringify(this.redactor.redact(text.slice(0, 120)))}` } });
      return;
    }
    const notification = isJsonObject(frame) && typeof frame['method'] === 'string' && !('id' in frame);
    // A flood of events must not push the exchanges out of the transcript.
    if (!notification || ++this.transcribedEvents <= MAX_TRANSCRIBED_EVENTS) this.transcribeReceived(text);
    if (!isJsonObject(frame)) {
      this.onStray(text, undefined);
      return;
    }
    if (typeof frame['method'] === 'string') {
      if ('id' in frame) {
        this.server.receive(frame);
        return;
      }
      const event = this.dialect.readEvent(frame);
      if (event) this.events.push(event, frame, text.length);
      else this.events.pushNotification(frame);
      return;
    }
    this.onResponse(frame, text);
  }

  private onResponse(frame: Record<string, unknown>, text: string): void {
    const id = frame['id'];
    const exact = id === undefined ? undefined : this.pending.exact(id);
    if (exact) {
      this.settleAnswer(exact, frame, text, 'exact');
      return;
    }
    const loose = this.pending.loose(id);
    if (loose) {
      this.settleAnswer(loose, frame, text, 'loose');
      return;
    }
    // A second answer, or one after the timeout: it belongs to that request, never to the one open now.
    if (this.answered.claim(id, text)) {
      this.stray.keep(text);
      return;
    }
    this.onStray(text, { response: frame, responseText: text, correlation: 'sole-pending' });
  }

  /** A frame that matched no request: give it to the only open request if there is exactly one, else keep it aside. */
  private onStray(text: string, attribution: Partial<Exchange> | undefined): void {
    if (this.stray.offer(text)) return;
    const sole = attribution ? this.pending.sole() : undefined;
    if (sole) this.settle(sole, { responseText: text, ...attribution });
    else this.stray.keep(text);
  }

  private onClosed(info: TransportClose): void {
    this.closeInfo = { code: info.code, reason: info.reason };
    if (this.transcribedEvents > MAX_TRANSCRIBED_EVENTS) this.transcript.record('--', this.name, `${this.transcribedEvents - MAX_TRANSCRIBED_EVENTS} further events received, not transcribed`);
    this.transcript.record('--', this.name, info.description ? `closed (${info.description})` : `closed ${info.code} ${info.reason}`.trim());
    const how = info.description ?? `code ${info.code}${info.reason ? `, "${info.reason}"` : ''}`;
    const message = info.localFault ? `the client dropped the connection before an answer: ${info.localFault}` : `the target closed the connection (${how}) before answering`;
    for (const entry of this.pending.all()) this.settle(entry, { failure: { code: 'CONNECTION_CLOSED', message, closeCode: info.code, closeReason: info.reason } });
    this.stray.closeAll();
    for (const waiting of this.queued) waiting.abort();
    this.resolveClosed(this.closeInfo);
  }
}
