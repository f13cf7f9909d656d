import WebSocket from 'ws';
import { HarnessError } from '../../core/index.js';
import type { Transport } from './transport.js';
import { TransportEvents } from './transportEvents.js';

export interface WebSocketTransportOptions {
  /** The URL to open, credentials already in its query. */
  url: string;
  /** The URL as messages show it (redacted). */
  label: string;
  connectTimeoutMs: number;
  maxFrameBytes: number;
  origin?: string;
  subprotocols?: string[];
  headers?: Record<string, string>;
  redact: (text: string) => string;
}

/** How long a clean close may take before the socket is dropped. */
const CLOSE_HANDSHAKE_MS = 2_000;

/** JSON-RPC frames as WebSocket text messages (a binary message is passed on as a note of its size). */
export class WebSocketTransport extends TransportEvents implements Transport {
  readonly kind = 'ws';
  readonly label: string;
  /** Resolves when the upgrade succeeded; rejects with GATEWAY_UNREACHABLE naming the target and the fix. */
  readonly opened: Promise<void>;
  private readonly socket: WebSocket;
  /** Why this side dropped the connection (a frame over the limit, a protocol violation), when it did. */
  private localFault: string | undefined;

  constructor(options: WebSocketTransportOptions) {
    super();
    this.label = options.label;
    const shown = options.label;
    const settings = {
      handshakeTimeout: options.connectTimeoutMs,
      maxPayload: options.maxFrameBytes,
      ...(options.origin ? { origin: options.origin } : {}),
      ...(options.headers ? { headers: options.headers } : {}),
    };
    const socket = options.subprotocols?.length ? new WebSocket(options.url, options.subprotocols, settings) : new WebSocket(options.url, settings);
    this.socket = socket;
    socket.on('message', (data, isBinary) => this.emitFrame({ text: isBinary ? `<binary ${(data as Buffer).length} bytes>` : data.toString() }));
    socket.on('error', (error: Error & { code?: string }) => {
      if (error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
        this.localFault = `the target sent a frame larger than the client's limit of ${options.maxFrameBytes} bytes`;
      } else if (error.code?.startsWith('WS_ERR_')) {
        this.localFault = `the target broke the WebSocket protocol (${error.message})`;
      }
      this.emitNote(`socket error: ${error.message}`);
    });
    socket.on('close', (code, reason) => {
      this.emitClose({ code, reason: reason.toString(), ...(this.localFault ? { localFault: this.localFault } : {}) });
    });
    this.opened = new Promise<void>((resolve, reject) => {
      let settled = false;
      // After the handshake a close is no failure to open: no error is built for it (with its stack, per connection).
      const fail = (message: () => string, error?: unknown): void => {
        if (settled) return;
        settled = true;
        reject(new HarnessError('GATEWAY_UNREACHABLE', message(), { cause: error }));
      };
      socket.once('open', () => {
        settled = true;
        resolve();
      });
      socket.once('error', (error) => fail(() => `cannot connect to ${shown}: ${options.redact(error.message)}; check that the gateway is running and the URL and token are right`, error));
      socket.once('close', (code, reason) => fail(() => `${shown} closed the connection during the handshake (code ${code}${reason.length ? ` "${reason.toString()}"` : ''})${code === 4401 ? '; the token was refused: check --token-env' : ''}`));
    });
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  get selectedProtocol(): string {
    return this.socket.protocol;
  }

  send(text: string): void {
    this.socket.send(text);
  }

  async close(code = 1000, reason = ''): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return;
    const closed = new Promise<void>((resolve) => this.socket.once('close', () => resolve()));
    if (this.socket.readyState !== WebSocket.CLOSING) this.socket.close(code, reason);
    const timer = setTimeout(() => this.socket.terminate(), CLOSE_HANDSHAKE_MS);
    await closed;
    clearTimeout(timer);
  }

  terminate(): void {
    this.socket.terminate();
  }
}
