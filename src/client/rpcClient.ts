import { type Exchange, type WireEvent, HarnessError, type JsonValue, outcomeOf, RpcError } from '../../core/index.js';
import type { EventFilter, EventLog } from './eventLog.js';
import { NoEventsError } from './noEvents.js';
import { openConnection } from './openConnection.js';
import type { Redactor } from './redact.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, type RpcClientOptions } from './rpcClientOptions.js';
import type { CallOptions, CloseInfo, RpcProtocol } from './rpcProtocol.js';
import type { ServerRequestRecord } from './serverRequests.js';
import { targetKind } from './targetUrl.js';
import type { Transcript } from './transcript.js';

export { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_READY_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS, MAX_TRANSCRIBED_EVENTS, type RpcClientOptions } from './rpcClientOptions.js';
export type { CloseInfo } from './rpcProtocol.js';

/** A JSON-RPC client over a WebSocket, HTTP or a child's stdio that records everything and never lets a hostile target hang a test. */
export class RpcClient {
  /** The dialect's first event, when the target sent one first. */
  ready: WireEvent | undefined;

  private constructor(
    readonly protocol: RpcProtocol,
    ready: WireEvent | undefined,
  ) {
    this.ready = ready;
  }

  /** Connects over the transport the URL's scheme names: a WebSocket (`ws(s)://`), HTTP (`http(s)://`, one POST per request) or a spawned `stdio:` command line. */
  static async connect(options: RpcClientOptions): Promise<RpcClient> {
    const opened = await openConnection({ ...options, target: options.url, kind: targetKind(options.url) });
    return RpcClient.over(opened.protocol, opened.ready);
  }

  /** A client over a protocol that is already connected (any transport). */
  static over(protocol: RpcProtocol, ready?: WireEvent): RpcClient {
    return new RpcClient(protocol, ready);
  }

  get name(): string {
    return this.protocol.name;
  }

  get transcript(): Transcript {
    return this.protocol.transcript;
  }

  get redactor(): Redactor {
    return this.protocol.redactor;
  }

  get events(): EventLog {
    return this.protocol.events;
  }

  get closed(): Promise<CloseInfo> {
    return this.protocol.closed;
  }

  /** Frames that matched no request (unknown ids, late or repeated answers, unparseable text); the first 1 000. */
  get strayFrames(): string[] {
    return this.protocol.strayFrames;
  }

  /** Stray frames beyond the first 1 000, counted only. */
  get strayDropped(): number {
    return this.protocol.strayDropped;
  }

  /** Requests the server sent to this client, with what was answered. */
  get serverRequests(): ServerRequestRecord[] {
    return this.protocol.serverRequests;
  }

  /** The WebSocket subprotocol the server selected ('' when none; undefined over stdio). */
  get selectedProtocol(): string | undefined {
    return this.protocol.transport.selectedProtocol;
  }

  get isOpen(): boolean {
    return this.protocol.isOpen;
  }

  get closeState(): CloseInfo | undefined {
    return this.protocol.closeState;
  }

  nextId(): string {
    return this.protocol.nextId();
  }

  /** Sends a request and resolves with the exchange (never rejects: timeouts and closes are recorded as failures). */
  call(method: string, params?: unknown, options: CallOptions = {}): Promise<Exchange> {
    return this.protocol.call(method, params, options);
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
    this.protocol.sendRaw(text);
  }

  /** Waits for the next frame that is neither an event nor a response to an open request; undefined on timeout or close. */
  nextStrayFrame(timeoutMs: number): Promise<string | undefined> {
    return this.protocol.nextStrayFrame(timeoutMs);
  }

  waitForEvent(filter: EventFilter, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS): Promise<WireEvent> {
    // Over HTTP nothing arrives unasked: a wait could only end in its timeout, so it ends now, saying why.
    if (this.protocol.transport.kind === 'http') {
      const what = [filter.type ?? 'event', filter.sessionId ? `for session ${filter.sessionId}` : ''].filter(Boolean).join(' ');
      return Promise.reject(new NoEventsError(what));
    }
    return this.events.waitFor(filter, timeoutMs);
  }

  /** Clean close; resolves once the close handshake finished (or after 2 s). */
  close(code = 1000, reason = ''): Promise<CloseInfo> {
    return this.protocol.close(code, reason);
  }

  /** Abnormal drop: no close frame (the peer sees 1006). */
  terminate(): void {
    this.protocol.terminate();
  }
}
