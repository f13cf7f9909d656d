import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { handleAuthRoute } from '../auth/authRoutes.js';
import type { Admission, GatedAuth } from '../auth/gatedAuth.js';
import type { GatewayCore } from '../core/gatewayCore.js';

export interface GatewayServerOptions {
  readonly host: string;
  readonly port: number;
  readonly token: string | undefined;
  readonly allowedOrigins: readonly string[] | undefined;
  /** Gated mode: tickets instead of the token, the Host/Origin guard on every upgrade. */
  readonly auth?: GatedAuth | undefined;
  readonly log: (line: string) => void;
}

/** How long a refused connection whose frames a fault dispatches stays open before its 4401. */
const REFUSED_DISPATCH_MS = 300;

export const WS_PATH = '/api/ws';
export const RPC_PATH = '/api/rpc';
const MAX_FRAME_BYTES = 16 * 1024 * 1024;

/** WebSocket `/api/ws` and HTTP `POST /api/rpc` in front of one {@link GatewayCore}. */
/**
 * Sends text frames on `ws`, holding the socket's writes until the end of the current tick: a response and the
 * events sent after it in the same tick leave in one write instead of one system call per frame. Order is kept.
 */
function coalescedSender(ws: WebSocket): (text: string) => void {
  const socket = (ws as unknown as { _socket?: Duplex })._socket;
  let held = false;
  const release = () => {
    held = false;
    socket?.uncork();
  };
  return (text) => {
    if (ws.readyState !== ws.OPEN) return;
    if (!held && socket) {
      held = true;
      socket.cork();
      process.nextTick(release);
    }
    ws.send(text);
  };
}

export class GatewayServer {
  private readonly http: Server;
  /** The subprotocol gated admission selected for an upgrade request. */
  private readonly selected = new WeakMap<IncomingMessage, string | false>();
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, handleProtocols: (_offered, request) => this.selected.get(request) ?? false });
  private bound = { host: '127.0.0.1', port: 0 };

  constructor(
    private readonly core: GatewayCore,
    private readonly options: GatewayServerOptions,
  ) {
    this.http = createServer((request, response) => void this.onHttp(request, response));
    this.http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => this.onUpgrade(request, socket, head));
  }

  listen(): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(this.options.port, this.options.host, () => {
        this.http.off('error', reject);
        const address = this.http.address() as AddressInfo;
        this.bound = { host: this.options.host, port: address.port };
        resolve(address);
      });
    });
  }

  async close(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private originAllowed(request: IncomingMessage): boolean {
    const origin = request.headers.origin;
    return this.options.allowedOrigins === undefined || origin === undefined || this.options.allowedOrigins.includes(origin);
  }

  private onUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(request.url ?? '/', 'http://gateway.invalid');
    if (url.pathname !== WS_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    if (this.options.auth) return this.onGatedUpgrade(this.options.auth, request, socket, head, url);
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      // Refusals are close codes after the handshake, as Hermes does: 4401 token, 4403 origin.
      if (this.options.token !== undefined && url.searchParams.get('token') !== this.options.token) {
        ws.close(4401, 'unauthorized');
        return;
      }
      if (!this.originAllowed(request)) {
        ws.close(4403, 'origin not allowed');
        return;
      }
      this.attach(ws, request.headers.origin);
    });
  }

  /**
   * Gated mode: the credential first (4401), then Host/Origin (4403), as the dashboard's pre-accept guard. A refusal
   * completes the upgrade only to deliver its close code; when no offered protocol can be selected it is an HTTP 401.
   */
  private onGatedUpgrade(auth: GatedAuth, request: IncomingMessage, socket: Duplex, head: Buffer, url: URL): void {
    const admission = auth.admit(request, url, this.bound, this.options.allowedOrigins ?? []);
    if (!admission.admitted && admission.subprotocol === false && request.headers['sec-websocket-protocol']) {
      this.options.log(`upgrade refused (${admission.reason})`);
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.selected.set(request, admission.subprotocol);
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      if (admission.admitted) {
        auth.connectionOpened();
        this.attach(ws, request.headers.origin);
        return;
      }
      this.refuse(ws, admission, request.headers.origin);
    });
  }

  private refuse(ws: WebSocket, admission: Extract<Admission, { admitted: false }>, origin: string | undefined): void {
    this.options.log(`upgrade refused ${admission.code} (${admission.reason})`);
    const reason = `auth: ${admission.reason}`.slice(0, 120);
    if (!this.core.seams.auth.has('dispatch-refused-frames')) {
      ws.close(admission.code, reason);
      return;
    }
    this.attach(ws, origin, { silent: true });
    setTimeout(() => ws.close(admission.code, reason), REFUSED_DISPATCH_MS);
  }

  private attach(ws: WebSocket, origin: string | undefined, options: { silent?: boolean } = {}): void {
    const connection = this.core.connect({
      kind: 'ws',
      ...(origin !== undefined ? { origin } : {}),
      send: options.silent ? () => {} : coalescedSender(ws),
      close: (code, reason) => ws.close(code, reason),
    });
    ws.on('message', (data) => {
      const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
      this.core.receive(connection, text).catch((error: unknown) => this.options.log(`frame handling failed: ${String(error)}`));
    });
    ws.on('close', (code, reason) => this.core.disconnect(connection, code, reason.toString('utf8')));
    ws.on('error', (error) => this.options.log(`websocket error: ${error.message}`));
  }

  private authorised(request: IncomingMessage, url: URL): boolean {
    // Gated mode: REST calls carry the dashboard session, never the legacy token.
    if (this.options.auth) return this.options.auth.userOf(request) !== undefined;
    const token = this.options.token;
    if (token === undefined) return true;
    if (url.searchParams.get('token') === token) return true;
    return request.headers.authorization === `Bearer ${token}`;
  }

  private async onHttp(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://gateway.invalid');
    const reply = (status: number, body?: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, body === undefined ? headers : { 'content-type': 'application/json', ...headers });
      response.end(body);
    };
    if (await handleAuthRoute(this.options.auth, request, url.pathname, reply)) return;
    if (url.pathname !== RPC_PATH) return reply(404, JSON.stringify({ error: 'not found' }));
    if (request.method !== 'POST') return reply(405, JSON.stringify({ error: 'method not allowed' }), { allow: 'POST' });
    if (!this.authorised(request, url)) return reply(401, JSON.stringify({ error: 'unauthorized' }));
    if (!this.originAllowed(request)) return reply(403, JSON.stringify({ error: 'origin not allowed' }));
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of request) {
      size += (chunk as Buffer).length;
      if (size > MAX_FRAME_BYTES) return reply(413, JSON.stringify({ error: 'request too large' }));
      chunks.push(chunk as Buffer);
    }
    try {
      const answer = await this.core.handleHttp(Buffer.concat(chunks).toString('utf8'));
      if (answer === undefined) return reply(204);
      return reply(200, answer);
    } catch (error) {
      this.options.log(`http request failed: ${String(error)}`);
      return reply(500, JSON.stringify({ error: 'internal error' }));
    }
  }
}
