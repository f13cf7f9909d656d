import WebSocket from 'ws';
import { type Exchange, type ExchangeFailure, type GatewayEventParams, HarnessError, isJsonObject, type JsonValue, outcomeOf, RpcError, type RpcId } from '../../core/index.js';
import { AnsweredRequests } from './answeredRequests.js';
import { clipText } from './clipText.js';
import { EventLog, type EventFilter } from './eventLog.js';
import { Redactor } from './redact.js';
import { withToken } from './targetUrl.js';
import { Transcript } from './transcript.js';
import {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_MAX_FRAME_BYTES,
  DEFAULT_READY_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  MAX_STRAY_FRAMES,
  MAX_TRANSCRIBED_EVENTS,
  type RpcClientOptions,
} from './rpcClientOptions.js';

export { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_READY_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS, MAX_TRANSCRIBED_EVENTS, type RpcClientOptions } from './rpcClientOptions.js';

interface Pending {
  id: RpcId;
  method: string;
  params: unknown;
  requestText: string;
  started: number;
  timer: NodeJS.Timeout;
  resolve: (exchange: Exchange) => void;
}

export interface CloseInfo {
  code: number;
  reason: string;
}

/** A WebSocket JSON-RPC client that records everything and never lets a hostile target hang a test. */
export class RpcClient {
  readonly name: string;
  readonly transcript: Transcript;
  readonly events: EventLog;
  /** The `gateway.ready` payload when the target sent one first. */
  ready: GatewayEventParams | undefined;
  /** Frames that matched no request (unknown ids, late or repeated answers, server requests, unparseable text); the first 1 000. */
  readonly strayFrames: string[] = [];
  /** Stray frames beyond the first 1 000, counted only. */
  strayDropped = 0;
  readonly closed: Promise<CloseInfo>;
  private readonly pending = new Map<string, Pending>();
  private readonly rawWaiters: Array<(text: string | undefined) => void> = [];
  private readonly answered = new AnsweredRequests();
  private counter = 0;
  private closeInfo: CloseInfo | undefined;
  private transcribedEvents = 0;
  /** Why this side dropped the connection (a frame over the limit, a protocol violation), when it did. */
  private localFault: string | undefined;

  private constructor(
    private readonly socket: WebSocket,
    private readonly options: RpcClientOptions,
    readonly redactor: Redactor,
  ) {
    this.name = options.name ?? 'c1';
    this.transcript = options.transcript ?? new Transcript(redactor);
    this.events = new EventLog(options.maxEvents ?? 50_000, options.maxEventChars ?? 64 * 1024 * 1024);
    this.closed = new Promise((resolve) => {
      socket.on('close', (code, reason) => {
        this.closeInfo = { code, reason: reason.toString() };
        if (this.transcribedEvents > MAX_TRANSCRIBED_EVENTS) this.transcript.record('--', this.name, `${this.transcribedEvents - MAX_TRANSCRIBED_EVENTS} further events received, not transcribed`);
        this.transcript.record('--', this.name, `closed ${code} ${this.closeInfo.reason}`.trim());
        const message = this.localFault
          ? `the client dropped the connection before an answer: ${this.localFault}`
          : `the target closed the connection (code ${code}${this.closeInfo.reason ? `, "${this.closeInfo.reason}"` : ''}) before answering`;
        this.failAll({ code: 'CONNECTION_CLOSED', message, closeCode: code, closeReason: this.closeInfo.reason });
        for (const waiter of this.rawWaiters.splice(0)) waiter(undefined);
        resolve(this.closeInfo);
      });
    });
    socket.on('message', (data, isBinary) => this.onFrame(isBinary ? `<binary ${(data as Buffer).length} bytes>` : data.toString()));
    socket.on('error', (error: Error & { code?: string }) => {
      if (error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
        this.localFault = `the target sent a frame larger than the client's limit of ${options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES} bytes`;
      } else if (error.code?.startsWith('WS_ERR_')) {
        this.localFault = `the target broke the WebSocket protocol (${error.message})`;
      }
      this.transcript.record('--', this.name, `socket error: ${redactor.redact(error.message)}`);
    });
  }

  static async connect(options: RpcClientOptions): Promise<RpcClient> {
    const redactor = new Redactor([options.token, ...(options.secrets ?? [])]);
    const url = withToken(options.url, options.token);
    const shown = redactor.redactUrl(url);
    const timeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const socket = new WebSocket(url, { handshakeTimeout: timeoutMs, maxPayload: options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES, ...(options.origin ? { origin: options.origin } : {}) });
    const client = new RpcClient(socket, options, redactor);
    client.transcript.record('--', client.name, `connect ${shown}`);
    await new Promise<void>((resolve, reject) => {
      const fail = (message: string, error?: unknown): void => reject(new HarnessError('GATEWAY_UNREACHABLE', message, { cause: error }));
      socket.once('open', () => resolve());
      socket.once('error', (error) => fail(`cannot connect to ${shown}: ${redactor.redact(error.message)}; check that the gateway is running and the URL and token are right`, error));
      socket.once('close', (code, reason) => fail(`${shown} closed the connection during the handshake (code ${code}${reason.length ? ` "${reason.toString()}"` : ''})${code === 4401 ? '; the token was refused: check --token-env' : ''}`));
    });
    const readyTimeoutMs = options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
    if (readyTimeoutMs > 0) {
      // A gateway that refuses the token accepts the upgrade and then closes (4401): that is not a connection.
      const ready = await Promise.race([client.events.waitFor({ type: 'gateway.ready' }, readyTimeoutMs).catch(() => undefined), client.closed.then(() => undefined)]);
      client.ready = ready;
    }
    const early = client.closeState;
    if (early) {
      throw new HarnessError(
        'GATEWAY_UNREACHABLE',
        `${shown} closed the connection right after the handshake (code ${early.code}${early.reason ? ` "${redactor.redact(early.reason)}"` : ''})${early.code === 4401 ? '; the token was refused: check --token-env' : early.code === 4403 ? '; the origin or the request was refused' : ''}`,
      );
    }
    return client;
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  get closeState(): CloseInfo | undefined {
    return this.closeInfo;
  }

  nextId(): string {
    return `${this.options.idPrefix ?? 'r'}${++this.counter}`;
  }

  /** Sends a request and resolves with the exchange (never rejects: timeouts and closes are recorded as failures). */
  call(method: string, params?: unknown, options: { id?: RpcId; timeoutMs?: number } = {}): Promise<Exchange> {
    const id = options.id === undefined ? this.nextId() : options.id;
    const frame: Record<string, unknown> = { jsonrpc: '2.0', id, method };
    if (params !== undefined) frame['params'] = params;
    const requestText = JSON.stringify(frame);
    const timeoutMs = options.timeoutMs ?? this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    return new Promise((resolve) => {
      const started = Date.now();
      const key = JSON.stringify(id);
      const timer = setTimeout(() => {
        this.pending.delete(key);
        const exchange = this.exchangeOf({ id, method, params, requestText, started }, { failure: { code: 'REQUEST_TIMEOUT', message: `[REQUEST_TIMEOUT] ${method} did not answer within ${timeoutMs} ms` } });
        this.answered.remember(exchange);
        resolve(exchange);
      }, timeoutMs);
      const entry: Pending = { id, method, params, requestText, started, timer, resolve };
      if (!this.isOpen) {
        clearTimeout(timer);
        resolve(this.exchangeOf(entry, { failure: { code: 'CONNECTION_CLOSED', message: `[CONNECTION_CLOSED] cannot send ${method}: the connection is closed (code ${this.closeInfo?.code ?? 'n/a'})`, ...(this.closeInfo ? { closeCode: this.closeInfo.code, closeReason: this.closeInfo.reason } : {}) } }));
        return;
      }
      this.answered.forget(id);
      this.pending.set(key, entry);
      this.send(requestText);
    });
  }

  /** Sends a request and returns its result; throws RpcError for a JSON-RPC error and HarnessError for anything else. */
  async request<T = JsonValue>(method: string, params?: unknown, options: { timeoutMs?: number } = {}): Promise<T> {
    const exchange = await this.call(method, params, options);
    const outcome = outcomeOf(exchange);
    if (outcome.kind === 'result') return outcome.result as T;
    if (outcome.kind === 'error') throw new RpcError(outcome.code, outcome.message, outcome.data);
    if (outcome.kind === 'failure') throw new HarnessError(outcome.failure.code, outcome.failure.message.replace(/^\[[A-Z_]+\] /, ''));
    throw new HarnessError('UNPARSEABLE_FRAME', `${method} answered ${outcome.reason}`);
  }

  /** Sends text as is (junk frames, notifications). */
  sendRaw(text: string): void {
    this.send(text);
  }

  /** Waits for the next frame that is neither an event nor a response to an open request; undefined on timeout or close. */
  nextStrayFrame(timeoutMs: number): Promise<string | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        const index = this.rawWaiters.indexOf(waiter);
        if (index >= 0) this.rawWaiters.splice(index, 1);
        resolve(undefined);
      }, timeoutMs);
      const waiter = (text: string | undefined): void => {
        clearTimeout(timer);
        resolve(text);
      };
      if (!this.isOpen) waiter(undefined);
      else this.rawWaiters.push(waiter);
    });
  }

  waitForEvent(filter: EventFilter, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS): Promise<GatewayEventParams> {
    return this.events.waitFor(filter, timeoutMs);
  }

  /** Clean close; resolves once the close handshake finished (or after 2 s). */
  async close(code = 1000, reason = ''): Promise<CloseInfo> {
    if (this.socket.readyState === WebSocket.CLOSED) return this.closeInfo ?? { code, reason };
    if (this.socket.readyState !== WebSocket.CLOSING) this.socket.close(code, reason);
    const timer = setTimeout(() => this.socket.terminate(), 2_000);
    const info = await this.closed;
    clearTimeout(timer);
    return info;
  }

  /** Abnormal drop: no close frame (the peer sees 1006). */
  terminate(): void {
    this.socket.terminate();
  }

  private send(text: string): void {
    this.transcript.record('>>', this.name, text);
    this.socket.send(text);
  }

  private exchangeOf(entry: Omit<Pending, 'timer' | 'resolve'>, extra: Partial<Exchange>): Exchange {
    return { conn: this.name, method: entry.method, id: entry.id, params: entry.params, requestText: entry.requestText, elapsedMs: Date.now() - entry.started, correlation: 'none', ...extra };
  }

  private settle(key: string, extra: Partial<Exchange>): void {
    const entry = this.pending.get(key);
    if (!entry) return;
    this.pending.delete(key);
    clearTimeout(entry.timer);
    const exchange = this.exchangeOf(entry, extra.responseText === undefined ? extra : { ...extra, responseText: clipText(extra.responseText) });
    this.answered.remember(exchange);
    entry.resolve(exchange);
  }

  private failAll(failure: ExchangeFailure): void {
    for (const key of [...this.pending.keys()]) this.settle(key, { failure });
  }

  private onFrame(text: string): void {
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      this.transcript.record('<<', this.name, text);
      this.onStray(text, { failure: { code: 'UNPARSEABLE_FRAME', message: `[UNPARSEABLE_FRAME] the target answered with text that is not JSON: ${JSON.stringify(this.redactor.redact(text.slice(0, 120)))}` } });
      return;
    }
    const notification = isJsonObject(frame) && typeof frame['method'] === 'string' && !('id' in frame);
    // A flood of events must not push the exchanges out of the transcript.
    if (!notification || ++this.transcribedEvents <= MAX_TRANSCRIBED_EVENTS) this.transcript.record('<<', this.name, text);
    if (!isJsonObject(frame)) {
      this.onStray(text, undefined);
      return;
    }
    if (typeof frame['method'] === 'string') {
      if (frame['method'] === 'event' && isJsonObject(frame['params']) && !('id' in frame)) {
        this.events.push(frame['params'] as GatewayEventParams, frame, text.length);
        return;
      }
      if ('id' in frame) {
        // A server→client request; this client does not advertise server_requests, so it is only recorded.
        this.keepStray(text);
        return;
      }
      this.events.pushNotification(frame);
      return;
    }
    this.onResponse(frame, text);
  }

  private onResponse(frame: Record<string, unknown>, text: string): void {
    const id = frame['id'] as RpcId | undefined;
    const exactKey = JSON.stringify(id);
    if (id !== undefined && this.pending.has(exactKey)) {
      this.settle(exactKey, { response: frame, responseText: text, correlation: 'exact' });
      return;
    }
    if (id !== undefined && id !== null) {
      const loose = [...this.pending.entries()].find(([, p]) => String(p.id) === String(id));
      if (loose) {
        this.settle(loose[0], { response: frame, responseText: text, correlation: 'loose' });
        return;
      }
    }
    // A second answer, or one after the timeout: it belongs to that request, never to the one open now.
    if (this.answered.claim(id, text)) {
      this.keepStray(text);
      return;
    }
    this.onStray(text, { response: frame, responseText: text, correlation: 'sole-pending' });
  }

  /** A frame that matched no request: give it to the only open request if there is exactly one, else keep it aside. */
  private onStray(text: string, attribution: Partial<Exchange> | undefined): void {
    const waiter = this.rawWaiters.shift();
    if (waiter) {
      waiter(text);
      return;
    }
    if (attribution && this.pending.size === 1) {
      const [key] = this.pending.keys();
      if (key !== undefined) {
        this.settle(key, { responseText: text, ...attribution });
        return;
      }
    }
    this.keepStray(text);
  }

  private keepStray(text: string): void {
    if (this.strayFrames.length < MAX_STRAY_FRAMES) this.strayFrames.push(clipText(text));
    else this.strayDropped++;
  }
}
