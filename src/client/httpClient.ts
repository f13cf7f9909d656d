import type { Exchange, RpcId } from '../../core/index.js';
import { Redactor } from './redact.js';
import { withToken } from './targetUrl.js';
import { Transcript } from './transcript.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from './rpcClient.js';

export interface HttpRpcClientOptions {
  url: string;
  token?: string;
  name?: string;
  requestTimeoutMs?: number;
  transcript?: Transcript;
}

/** JSON-RPC over HTTP POST (one request per POST, no events), for targets that only speak HTTP. */
export class HttpRpcClient {
  readonly name: string;
  readonly transcript: Transcript;
  readonly redactor: Redactor;
  private readonly url: string;
  private counter = 0;

  constructor(private readonly options: HttpRpcClientOptions) {
    this.name = options.name ?? 'h1';
    this.redactor = new Redactor([options.token]);
    this.transcript = options.transcript ?? new Transcript(this.redactor);
    this.url = withToken(options.url, options.token);
  }

  async call(method: string, params?: unknown, options: { id?: RpcId; timeoutMs?: number } = {}): Promise<Exchange> {
    const id = options.id === undefined ? `r${++this.counter}` : options.id;
    const frame: Record<string, unknown> = { jsonrpc: '2.0', id, method };
    if (params !== undefined) frame['params'] = params;
    const requestText = JSON.stringify(frame);
    const timeoutMs = options.timeoutMs ?? this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const started = Date.now();
    const base = { conn: this.name, method, id, params, requestText, correlation: 'none' as const };
    this.transcript.record('>>', this.name, requestText);
    let text: string;
    try {
      const response = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.options.token ? { authorization: `Bearer ${this.options.token}` } : {}) },
        body: requestText,
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      const message = timedOut
        ? `[REQUEST_TIMEOUT] ${method} did not answer within ${timeoutMs} ms`
        : `[CONNECTION_CLOSED] POST to ${this.redactor.redactUrl(this.url)} failed: ${this.redactor.redact((error as Error).message)}`;
      return { ...base, elapsedMs: Date.now() - started, failure: { code: timedOut ? 'REQUEST_TIMEOUT' : 'CONNECTION_CLOSED', message } };
    }
    this.transcript.record('<<', this.name, text);
    const elapsedMs = Date.now() - started;
    try {
      const parsed = JSON.parse(text) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      const frameOut = parsed as Record<string, unknown>;
      const correlation = JSON.stringify(frameOut['id']) === JSON.stringify(id) ? 'exact' : String(frameOut['id']) === String(id) ? 'loose' : 'sole-pending';
      return { ...base, elapsedMs, response: frameOut, responseText: text, correlation };
    } catch {
      return { ...base, elapsedMs, responseText: text, failure: { code: 'UNPARSEABLE_FRAME', message: `[UNPARSEABLE_FRAME] ${method} answered with a body that is not a JSON-RPC object` } };
    }
  }

  async close(): Promise<void> {
    // Nothing to release: every call is its own HTTP request.
  }
}
