import type { ConnectionCredentials } from './connectionAuth.js';
import { withQuery } from './targetUrl.js';
import type { Transport, TransportClose } from './transport.js';
import { TransportEvents } from './transportEvents.js';

export interface HttpTransportOptions {
  url: string;
  /** The URL as messages show it (redacted). */
  label: string;
  /** Presented once for this transport, awaited before the first POST. */
  credentials: Promise<ConnectionCredentials>;
}

const CLOSED_BY_CLIENT: TransportClose = { code: 1000, reason: '', description: 'the client closed it' };

/**
 * JSON-RPC over HTTP: one POST per frame, its body the answer to that frame. Nothing arrives unasked, so
 * there are no events and no server requests.
 */
export class HttpTransport extends TransportEvents implements Transport {
  readonly kind = 'http';
  readonly label: string;
  readonly selectedProtocol = undefined;
  private readonly posts = new Map<number | symbol, AbortController>();
  private open = true;

  constructor(private readonly options: HttpTransportOptions) {
    super();
    this.label = options.label;
    // A failed presentation fails each POST; it must not surface as an unhandled rejection before then.
    options.credentials.catch(() => undefined);
  }

  get isOpen(): boolean {
    return this.open;
  }

  send(text: string, replyTo?: number): void {
    if (!this.open) return;
    const key = replyTo ?? Symbol('post');
    const controller = new AbortController();
    this.posts.set(key, controller);
    void this.post(text, key, replyTo, controller.signal).finally(() => this.posts.delete(key));
  }

  cancel(replyTo: number): void {
    this.posts.get(replyTo)?.abort();
  }

  close(): Promise<void> {
    this.shut();
    return Promise.resolve();
  }

  terminate(): void {
    this.shut();
  }

  private shut(info: TransportClose = CLOSED_BY_CLIENT): void {
    if (!this.open) return;
    this.open = false;
    for (const controller of this.posts.values()) controller.abort();
    this.emitClose(info);
  }

  private async post(text: string, key: number | symbol, replyTo: number | undefined, signal: AbortSignal): Promise<void> {
    let body: string;
    let sent = false;
    try {
      const credentials = await this.options.credentials;
      sent = true;
      const response = await fetch(withQuery(this.options.url, credentials.query), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...credentials.headers },
        body: text,
        signal,
      });
      body = await response.text();
    } catch (error) {
      if (signal.aborted) return;
      const reason = `POST to ${this.label} failed: ${describeFetchError(error)}`;
      if (replyTo === undefined) this.emitNote(reason);
      else this.emitFrame({ replyTo, undelivered: reason });
      // The target refused or dropped the POST itself: it stopped answering, as a WebSocket that closed. What was
      // sent last is then the frame the connection was lost after, and nothing more goes out on it.
      if (sent) this.shut({ code: 1006, reason: '', description: `the target stopped answering (${reason})` });
      return;
    }
    if (signal.aborted) return;
    // The POST is over: the protocol cancels every answered request, and aborting a finished fetch only builds an
    // AbortError for nothing.
    this.posts.delete(key);
    // A notification's POST answers with an empty body (204): nothing to pass on.
    if (replyTo !== undefined || body.length > 0) this.emitFrame({ text: body, ...(replyTo !== undefined ? { replyTo } : {}) });
  }
}

/** fetch's own message is "fetch failed": the cause says what happened (a refused connection, a socket the peer closed). */
function describeFetchError(error: unknown): string {
  const message = (error as Error).message;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (!cause || typeof cause.message !== 'string') return message;
  return `${message} (${typeof cause.code === 'string' ? `${cause.code}: ` : ''}${cause.message})`;
}
