import { expect, test } from './helpers/test.js';
import { once } from 'node:events';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { SESSION_LIFECYCLE_CONTRACT } from '../../profiles/hermes/paths.js';
import { loadContractSync } from '../../src/contracts/index.js';
import { startRelay, upstreamUrlFor, type RelayTap } from '../../src/proxy/index.js';
import { startWatchedProxy } from './helpers/proxyHarness.js';
import { scratchDir } from './helpers/scratchDir.js';

// The relay against a misbehaving upstream and a misbehaving client: bytes pass unchanged both ways (text stays
// text, binary stays binary, huge frames and non-JSON included), subprotocol, query token and Origin reach the
// upstream, closes are passed on with their code, and one side's abrupt end never takes another connection down.

const CONTRACT = loadContractSync(SESSION_LIFECYCLE_CONTRACT);
const HUGE = 12 * 1024 * 1024;

interface Upstream {
  url: string;
  server: WebSocketServer;
  upgrades: IncomingMessage[];
  sockets: WebSocket[];
  received: Array<{ data: Buffer; isBinary: boolean }>;
}

/** An upstream that picks the first offered subprotocol, refuses `?refuse=1` with HTTP 401 and echoes every message back. */
async function startUpstream(): Promise<Upstream> {
  const upgrades: IncomingMessage[] = [];
  const sockets: WebSocket[] = [];
  const received: Upstream['received'] = [];
  const server = new WebSocketServer({
    port: 0,
    host: '127.0.0.1',
    maxPayload: 64 * 1024 * 1024,
    handleProtocols: (offered) => [...offered][0] ?? false,
    verifyClient: (info, done) => (info.req.url?.includes('refuse=1') ? done(false, 401, 'Unauthorized') : done(true)),
  });
  server.on('connection', (socket, request) => {
    upgrades.push(request);
    sockets.push(socket);
    socket.on('message', (data, isBinary) => {
      const bytes = data as Buffer;
      received.push({ data: bytes, isBinary });
      if (bytes.toString() === 'close-4401') socket.close(4401, 'token required');
      else if (bytes.toString() === 'die') socket.terminate();
      else socket.send(bytes, { binary: isBinary });
    });
  });
  await once(server, 'listening');
  return { url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/api/ws`, server, upgrades, sockets, received };
}

async function open(url: string, protocols: string[] = [], headers: Record<string, string> = {}): Promise<{ socket: WebSocket; messages: Array<{ data: Buffer; isBinary: boolean }>; closed: Promise<[number, Buffer]> }> {
  const socket = new WebSocket(url, protocols, { headers, maxPayload: 64 * 1024 * 1024 });
  const messages: Array<{ data: Buffer; isBinary: boolean }> = [];
  socket.on('message', (data, isBinary) => messages.push({ data: data as Buffer, isBinary }));
  const closed = once(socket, 'close') as Promise<[number, Buffer]>;
  await once(socket, 'open');
  return { socket, messages, closed };
}

const until = async (condition: () => boolean, timeoutMs = 5_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

test('the client query joins the upstream URL; the upstream path is kept', () => {
  expect(upstreamUrlFor('wss://gw.example/api/ws', '/anything?token=abc&x=1')).toBe('wss://gw.example/api/ws?token=abc&x=1');
  expect(upstreamUrlFor('ws://gw.example:8800/api/ws?region=eu', '/api/ws')).toBe('ws://gw.example:8800/api/ws?region=eu');
});

test('frames pass unchanged both ways: non-JSON, binary, huge; subprotocol, token and Origin reach the upstream', async () => {
  const upstream = await startUpstream();
  const logRoot = scratchDir('contract-gate-proxy-logs');
  const proxy = await startWatchedProxy({ upstream: upstream.url, server: CONTRACT, maxPayload: 64 * 1024 * 1024, logRoot });
  // The connection's log spills to a file of its own once it holds more than its 64 KiB buffer.
  const logFiles = (): string[] => readdirSync(logRoot).flatMap((dir) => readdirSync(join(logRoot, dir)));
  try {
    const client = await open(`${proxy.url}?token=relay-secret-token`, ['hermes.v1', 'other'], { origin: 'https://desktop.example' });
    expect(client.socket.protocol).toBe('hermes.v1');
    expect(upstream.upgrades[0]?.url).toBe('/api/ws?token=relay-secret-token');
    expect(upstream.upgrades[0]?.headers.origin).toBe('https://desktop.example');
    expect(upstream.upgrades[0]?.headers['sec-websocket-protocol']?.split(/,\s*/)).toEqual(['hermes.v1', 'other']);
    const huge = `{"jsonrpc":"2.0","id":1,"method":"session.steer","params":{"text":"${'x'.repeat(HUGE)}"}}`;
    const sent: Array<{ data: Buffer; isBinary: boolean }> = [
      { data: Buffer.from('this is not json {'), isBinary: false },
      { data: Buffer.from([0, 1, 2, 255, 254]), isBinary: true },
      { data: Buffer.from('[{"jsonrpc":"2.0","id":2,"method":"session.list"}]'), isBinary: false },
      { data: Buffer.from(huge), isBinary: false },
      { data: Buffer.from('{"jsonrpc":"2.0","id":"z","method":"session.list","params":{"limit":"many"}}\n'), isBinary: false },
    ];
    for (const frame of sent) client.socket.send(frame.data, { binary: frame.isBinary });
    await until(() => client.messages.length === sent.length);
    expect(upstream.received.map((m) => [m.isBinary, m.data.equals(sent[upstream.received.indexOf(m)]?.data ?? Buffer.alloc(0))])).toEqual(sent.map((s) => [s.isBinary, true]));
    expect(client.messages.map((m, i) => m.isBinary === sent[i]?.isBinary && m.data.equals(sent[i]?.data ?? Buffer.alloc(0)))).toEqual(sent.map(() => true));
    // Unjudgeable frames are counted, not judged, and nothing crashed: the same connection still relays.
    const unjudged = proxy.watch.judge.unjudged;
    expect(unjudged.clientNotJson).toBe(1);
    expect(unjudged.serverNotJson).toBe(1);
    expect(unjudged.batches).toBe(2);
    expect(proxy.watch.binaryFrames).toBe(2);
    client.socket.send('{"jsonrpc":"2.0","id":"after","method":"gateway.ping"}');
    await until(() => client.messages.length === sent.length + 1);
    expect(logFiles(), 'the huge frames went to the connection\'s file').toHaveLength(1);
    client.socket.close(1000);
    await client.closed;
  } finally {
    await proxy.close();
    upstream.server.close();
  }
  // The echoed frames made findings, so the connection was kept for the report: its file goes with the watch.
  expect(readdirSync(logRoot)).toEqual([]);
  rmSync(logRoot, { recursive: true, force: true });
});

test('closes are passed on with their code; an abrupt end on one connection leaves the others running', async () => {
  const upstream = await startUpstream();
  const proxy = await startWatchedProxy({ upstream: upstream.url, server: CONTRACT });
  try {
    const bystander = await open(proxy.url);
    // The upstream closes with an application code: the client gets the same code and reason.
    const refusedLater = await open(proxy.url);
    refusedLater.socket.send('close-4401');
    const [code, reason] = await refusedLater.closed;
    expect([code, reason.toString()]).toEqual([4401, 'token required']);
    // The upstream dies without a close frame: the client's connection ends abnormally (1006).
    const dying = await open(proxy.url);
    dying.socket.send('die');
    expect((await dying.closed)[0]).toBe(1006);
    // The client vanishes without a close frame: the upstream's socket ends too.
    const vanishing = await open(proxy.url);
    await until(() => upstream.sockets.length === 4);
    const upstreamSide = once(upstream.sockets[3] as WebSocket, 'close') as Promise<[number, Buffer]>;
    vanishing.socket.terminate();
    expect((await upstreamSide)[0]).toBe(1006);
    // The upstream refuses the upgrade: the client gets its HTTP status.
    const refused = new WebSocket(`${proxy.url}?refuse=1`);
    refused.on('error', () => undefined);
    const [, response] = (await once(refused, 'unexpected-response')) as [unknown, IncomingMessage];
    expect(response.statusCode).toBe(401);
    response.destroy();
    // The first connection never noticed.
    bystander.socket.send('{"jsonrpc":"2.0","id":1,"method":"gateway.ping"}');
    await until(() => bystander.messages.length === 1);
    expect(bystander.messages[0]?.data.toString()).toBe('{"jsonrpc":"2.0","id":1,"method":"gateway.ping"}');
    expect(proxy.watch.refusals).toHaveLength(1);
    bystander.socket.close();
  } finally {
    await proxy.close();
    upstream.server.close();
  }
});

test('plain HTTP requests go to the upstream host unchanged (REST beside the socket)', async () => {
  const { createServer } = await import('node:http');
  const rest = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => response.writeHead(201, { 'x-seen-token': String(request.headers['x-hermes-session-token']) }).end(`${request.method} ${request.url} ${body}`));
  });
  await new Promise<void>((resolve) => rest.listen(0, '127.0.0.1', resolve));
  const relay = await startRelay({ upstream: `ws://127.0.0.1:${(rest.address() as AddressInfo).port}/api/ws`, tap: { opened: () => undefined, frame: () => undefined, closed: () => undefined, refused: () => undefined } });
  try {
    const answer = await fetch(`http://127.0.0.1:${relay.port}/api/sessions?x=1`, { method: 'POST', body: 'hello', headers: { 'x-hermes-session-token': 't' } });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('x-seen-token')).toBe('t');
    expect(await answer.text()).toBe('POST /api/sessions?x=1 hello');
  } finally {
    await relay.close();
    await new Promise((resolve) => rest.close(resolve));
  }
});

test('an observer that throws changes nothing on the wire', async () => {
  const upstream = await startUpstream();
  const throwing: RelayTap = {
    opened: () => {
      throw new Error('observer failed');
    },
    frame: () => {
      throw new Error('observer failed');
    },
    closed: () => {
      throw new Error('observer failed');
    },
    refused: () => {
      throw new Error('observer failed');
    },
  };
  const relay = await startRelay({ upstream: upstream.url, tap: throwing });
  try {
    const client = await open(relay.url);
    client.socket.send('{"jsonrpc":"2.0","id":1,"method":"gateway.ping"}');
    await until(() => client.messages.length === 1);
    client.socket.close(1000, 'bye');
    await client.closed;
  } finally {
    await relay.close();
    upstream.server.close();
  }
});
