import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { deferredTap } from './deferredTap.js';
import type { FrameSide } from './findings.js';

/** What the relay tells its observer; every call happens after the frame or close was passed on. */
export interface RelayTap {
  opened(conn: string, info: ConnectionInfo): void;
  frame(conn: string, from: FrameSide, data: Buffer, isBinary: boolean): void;
  closed(conn: string, by: FrameSide, code: number, reason: string): void;
  /** The upstream refused the upgrade (its HTTP answer was passed back to the client) or could not be reached. */
  refused(conn: string, why: string, unreachable: boolean): void;
}

export interface ConnectionInfo {
  /** Path and query the client asked for (as sent: the observer redacts). */
  requestUrl: string;
  /** The subprotocol the upstream selected ('' for none). */
  protocol: string;
  /** Credentials seen in the upgrade (query token or ticket, bearer token, long subprotocol values), for redaction. */
  secrets: string[];
}

export interface RelayOptions {
  /** ws(s)://host/api/ws of the gateway; the client's query string is added to it. */
  upstream: string;
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
  /** Largest message relayed either way (default 100 MiB, as `ws`); a larger one closes that side with 1009. */
  maxPayload?: number;
  /** Upgrade handshake timeout towards the upstream (default 10 s). */
  connectTimeoutMs?: number;
  tap: RelayTap;
}

export interface RunningRelay {
  readonly url: string;
  readonly port: number;
  /** Open connection pairs. */
  readonly open: number;
  /** Closes every pair (client 1001, upstream 1000) and stops listening. */
  close(): Promise<void>;
}

/** Request headers a gateway may need for auth or origin checks; hop-by-hop WebSocket headers are negotiated per side. */
const FORWARDED_HEADERS = ['origin', 'authorization', 'cookie', 'user-agent'];
const DEFAULT_MAX_PAYLOAD = 100 * 1024 * 1024;

/** The upstream URL with the client's query parameters (token, ticket, …) added; the upstream's path is kept. */
export function upstreamUrlFor(upstream: string, requestUrl: string | undefined): string {
  const target = new URL(upstream);
  const asked = new URL(requestUrl ?? '/', 'http://proxy.invalid');
  for (const [key, value] of asked.searchParams) target.searchParams.set(key, value);
  return target.href;
}

function offeredProtocols(request: IncomingMessage): string[] {
  const header = request.headers['sec-websocket-protocol'];
  return (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((p) => p.trim()).filter((p) => p !== '');
}

function secretsOf(request: IncomingMessage): string[] {
  const query = new URL(request.url ?? '/', 'http://proxy.invalid').searchParams;
  const secrets = [query.get('token'), query.get('ticket')];
  const auth = request.headers['authorization'];
  if (typeof auth === 'string') secrets.push(auth.replace(/^(Bearer|Basic)\s+/i, ''));
  secrets.push(...offeredProtocols(request).filter((protocol) => protocol.length >= 16));
  return secrets.filter((s): s is string => typeof s === 'string' && s.length > 0);
}

/** Passes a close on with the same code where the protocol allows sending it; 1005 and 1006 cannot be sent. */
function closeOther(socket: WebSocket, code: number, reason: Buffer): void {
  if (socket.readyState === WebSocket.CLOSING || socket.readyState === WebSocket.CLOSED) return;
  if (code === 1006) return socket.terminate();
  try {
    if (code === 1005) socket.close();
    else socket.close(code, reason.subarray(0, 123));
  } catch {
    socket.terminate();
  }
}

function answerHttp(socket: Duplex, status: number, message: string, headers: Record<string, string | string[] | undefined>, body: Buffer): void {
  if (socket.destroyed) return;
  const lines = [`HTTP/1.1 ${status} ${message}`];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || ['connection', 'transfer-encoding', 'content-length'].includes(name)) continue;
    for (const item of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${item}`);
  }
  lines.push(`content-length: ${body.length}`, 'connection: close', '', '');
  socket.end(Buffer.concat([Buffer.from(lines.join('\r\n')), body]));
}

/**
 * Plain HTTP requests (a dashboard page, REST calls beside the socket) go to the upstream's host unchanged and
 * unjudged, so that a client whose WebSocket and REST share one base URL works through the proxy.
 */
function forwardHttp(upstream: string, request: IncomingMessage, response: ServerResponse): void {
  const target = new URL(upstream);
  const secure = target.protocol === 'wss:';
  const headers = { ...request.headers, host: target.host };
  const outgoing = (secure ? httpsRequest : httpRequest)(
    { protocol: secure ? 'https:' : 'http:', hostname: target.hostname.replace(/^\[|\]$/g, ''), port: target.port, method: request.method, path: request.url, headers },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.headers);
      answer.pipe(response);
    },
  );
  outgoing.on('error', (error) => {
    if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
    response.end(`contract-gate proxy: upstream unreachable: ${error.message}\n`);
  });
  request.pipe(outgoing);
}

/**
 * Sends on `ws` with the socket's writes held until the end of the current tick: the frames one upstream write
 * brought (an answer and the events after it) leave in one write too, instead of one system call per frame.
 */
function coalescedSender(ws: WebSocket): (data: Buffer, binary: boolean) => void {
  const socket = (ws as unknown as { _socket?: Duplex })._socket;
  let held = false;
  const release = (): void => {
    held = false;
    socket?.uncork();
  };
  return (data, binary) => {
    if (ws.readyState !== WebSocket.OPEN) return;
    if (!held && socket) {
      held = true;
      socket.cork();
      process.nextTick(release);
    }
    ws.send(data, { binary });
  };
}

const toBuffer = (data: RawData): Buffer => (Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data));

/**
 * A WebSocket relay: every client upgrade opens one upstream connection with the client's query, subprotocols and
 * auth headers; once the upstream accepts, the client's upgrade completes with the subprotocol the upstream chose,
 * and from then on every message is passed on unchanged (text stays text, binary stays binary) before the tap
 * hears of it. A close is passed on with its code. The tap can throw: the relay carries on.
 */
export async function startRelay(options: RelayOptions): Promise<RunningRelay> {
  const maxPayload = options.maxPayload ?? DEFAULT_MAX_PAYLOAD;
  const selected = new WeakMap<IncomingMessage, string>();
  const wss = new WebSocketServer({ noServer: true, maxPayload, perMessageDeflate: false, handleProtocols: (_offered, request) => selected.get(request) || false });
  const pairs = new Set<{ client: WebSocket; upstream: WebSocket }>();
  const pending = new Set<WebSocket>();
  const tap = deferredTap();
  const tell = tap.later;
  let counter = 0;

  const server = createServer((request, response) => forwardHttp(options.upstream, request, response));

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const conn = `c${++counter}`;
    socket.on('error', () => undefined);
    const headers: Record<string, string> = {};
    for (const name of FORWARDED_HEADERS) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const upstream = new WebSocket(upstreamUrlFor(options.upstream, request.url), offeredProtocols(request), {
      headers,
      maxPayload,
      perMessageDeflate: false,
      handshakeTimeout: options.connectTimeoutMs ?? 10_000,
    });
    pending.add(upstream);
    let client: WebSocket | undefined;
    let toClient: ((data: Buffer, binary: boolean) => void) | undefined;
    let toUpstream: ((data: Buffer, binary: boolean) => void) | undefined;
    let ended = false;
    const early: Array<[Buffer, boolean]> = [];
    const end = (by: FrameSide, code: number, reason: Buffer): void => {
      if (ended) return;
      ended = true;
      tell(() => options.tap.closed(conn, by, code, reason.toString('utf8')));
    };
    socket.once('close', () => {
      if (!client) upstream.terminate();
    });
    let answeredByUpstream = false;
    upstream.on('unexpected-response', (_req, response) => {
      answeredByUpstream = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        answerHttp(socket, response.statusCode ?? 502, response.statusMessage ?? '', response.headers, Buffer.concat(chunks));
        tell(() => options.tap.refused(conn, `the upstream answered the upgrade with HTTP ${response.statusCode ?? '?'}`, false));
      });
      response.on('error', () => socket.destroy());
    });
    upstream.on('error', (error) => {
      pending.delete(upstream);
      if (client || answeredByUpstream) return;
      answerHttp(socket, 502, 'Bad Gateway', { 'content-type': 'text/plain; charset=utf-8' }, Buffer.from(`contract-gate proxy: upstream unreachable: ${error.message}\n`));
      tell(() => options.tap.refused(conn, `upstream unreachable: ${error.message}`, true));
    });
    upstream.on('message', (data, isBinary) => {
      const bytes = toBuffer(data);
      if (!client) {
        early.push([bytes, isBinary]);
        return;
      }
      toClient?.(bytes, isBinary);
      tell(() => options.tap.frame(conn, 'server', bytes, isBinary));
    });
    upstream.on('open', () => {
      pending.delete(upstream);
      if (socket.destroyed) return upstream.terminate();
      selected.set(request, upstream.protocol);
      wss.handleUpgrade(request, socket, head, (accepted) => {
        client = accepted;
        toClient = coalescedSender(accepted);
        toUpstream = coalescedSender(upstream);
        const pair = { client: accepted, upstream };
        pairs.add(pair);
        tell(() => options.tap.opened(conn, { requestUrl: request.url ?? '/', protocol: upstream.protocol, secrets: secretsOf(request) }));
        for (const [bytes, isBinary] of early.splice(0)) {
          accepted.send(bytes, { binary: isBinary });
          tell(() => options.tap.frame(conn, 'server', bytes, isBinary));
        }
        accepted.on('message', (data, isBinary) => {
          const bytes = toBuffer(data);
          toUpstream?.(bytes, isBinary);
          tell(() => options.tap.frame(conn, 'client', bytes, isBinary));
        });
        accepted.on('error', () => undefined);
        accepted.on('close', (code, reason) => {
          pairs.delete(pair);
          closeOther(upstream, code, reason);
          end('client', code, reason);
        });
        upstream.on('close', (code, reason) => {
          pairs.delete(pair);
          closeOther(accepted, code, reason);
          end('server', code, reason);
        });
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `ws://${host}:${address.port}${new URL(options.upstream).pathname}`,
    port: address.port,
    get open() {
      return pairs.size;
    },
    async close() {
      for (const upstream of pending) upstream.terminate();
      for (const { client, upstream } of [...pairs]) {
        client.close(1001, 'contract-gate proxy stopping');
        upstream.close(1000);
      }
      await new Promise((resolve) => setTimeout(resolve, pairs.size > 0 ? 100 : 0));
      for (const { client, upstream } of pairs) {
        client.terminate();
        upstream.terminate();
      }
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // Whatever the tap has not heard of yet, it hears of before the relay is reported closed.
      tap.drain();
    },
  };
}
