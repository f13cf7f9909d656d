import { expect, test } from './helpers/test.js';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { HarnessError, outcomeOf } from '../../core/index.js';
import { startGateway, type RunningGateway } from '../../gateway/index.js';
import { authFor, type ConnectionAuth, noAuth, tokenAuth } from '../../src/client/connectionAuth.js';
import { connectTarget } from '../../src/client/connectTarget.js';
import { HttpRpcClient } from '../../src/client/httpClient.js';
import { HERMES_DIALECT } from '../../profiles/hermes/dialect.js';

const TOKEN = 'tok-88e1-secret';

test('the token kind: ?token= on WebSocket URLs that carry none, a Bearer header over HTTP; none presents nothing', async () => {
  const auth = tokenAuth(TOKEN);
  expect(await auth.present({ transport: 'ws', target: 'ws://h/api/ws' })).toEqual({ query: { token: TOKEN }, secrets: [TOKEN] });
  expect(await auth.present({ transport: 'ws', target: 'ws://h/api/ws?ticket=t1' })).toEqual({ secrets: [TOKEN] });
  expect(await auth.present({ transport: 'http', target: 'http://h/api/rpc' })).toEqual({ headers: { authorization: `Bearer ${TOKEN}` }, secrets: [TOKEN] });
  expect(await auth.present({ transport: 'stdio', target: 'stdio:x' })).toEqual({ secrets: [TOKEN] });
  expect(await noAuth().present({ transport: 'ws', target: 'ws://h/' })).toEqual({ secrets: [] });
  expect(authFor({ token: TOKEN }).kind).toBe('token');
  expect(authFor({ token: '' }).kind).toBe('none');
  expect(authFor({ token: TOKEN, auth: noAuth() }).kind).toBe('none');
});

/** A fresh single-use ticket per connection, as subprotocols; the server must select exactly the v1 protocol. */
function ticketAuth(): ConnectionAuth & { issued: string[] } {
  const issued: string[] = [];
  return {
    kind: 'ticket',
    issued,
    present: () => {
      const ticket = `tkt${issued.length + 1}-${'z'.repeat(12)}`;
      issued.push(ticket);
      return Promise.resolve({ subprotocols: ['hermes-gateway-v1', `hermes-gateway-ticket.${ticket}`], headers: { 'x-client': 'contract-gate' }, secrets: [ticket] });
    },
    refuse: ({ selectedProtocol }) => (selectedProtocol === 'hermes-gateway-v1' ? undefined : `the server selected subprotocol "${selectedProtocol}", not hermes-gateway-v1`),
  };
}

async function subprotocolServer(select: (offered: Set<string>) => string | false): Promise<{ url: string; upgrades: IncomingMessage[]; close: () => Promise<void> }> {
  const upgrades: IncomingMessage[] = [];
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: (offered) => select(offered) });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  wss.on('connection', (socket, request) => {
    upgrades.push(request);
    // Echoes what it was offered, so the test can see the ticket is redacted from the transcript.
    socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'event', params: { type: 'gateway.ready', payload: { offered: request.headers['sec-websocket-protocol'] } } }));
  });
  const { port } = wss.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/api/ws`,
    upgrades,
    close: () => new Promise((resolve) => {
      for (const client of wss.clients) client.terminate();
      wss.close(() => resolve());
    }),
  };
}

test('a ticket-like kind: subprotocols and headers on the upgrade, a fresh ticket per connection, the selected protocol visible, tickets redacted', async () => {
  const server = await subprotocolServer(() => 'hermes-gateway-v1');
  const auth = ticketAuth();
  try {
    const first = await connectTarget({ dialect: HERMES_DIALECT, target: server.url, auth });
    const second = await connectTarget({ dialect: HERMES_DIALECT, target: server.url, auth });
    expect(auth.issued).toHaveLength(2);
    expect(auth.issued[0]).not.toBe(auth.issued[1]);
    expect(first.selectedProtocol).toBe('hermes-gateway-v1');
    expect(server.upgrades.map((r) => r.headers['sec-websocket-protocol'])).toEqual(auth.issued.map((t) => `hermes-gateway-v1,hermes-gateway-ticket.${t}`));
    expect(server.upgrades[0]?.headers['x-client']).toBe('contract-gate');
    expect(first.ready?.payload).toEqual({ offered: `hermes-gateway-v1,hermes-gateway-ticket.${auth.issued[0]}` });
    const text = first.transcript.render();
    expect(text).toContain('hermes-gateway-ticket.***');
    expect(text).not.toContain(auth.issued[0] as string);
    await first.close();
    await second.close();
  } finally {
    await server.close();
  }
});

test('the auth kind vetoes a connection whose server selected the wrong subprotocol', async () => {
  const server = await subprotocolServer((offered) => [...offered].find((p) => p.startsWith('hermes-gateway-ticket.')) ?? false);
  const auth = ticketAuth();
  try {
    const error = await connectTarget({ dialect: HERMES_DIALECT, target: server.url, auth }).catch((e: unknown) => e);
    expect(HarnessError.is(error)).toBe(true);
    expect((error as HarnessError).code).toBe('GATEWAY_UNREACHABLE');
    expect((error as Error).message).toMatch(/^\[GATEWAY_UNREACHABLE\] ws:\/\/127\.0\.0\.1:\d+\/api\/ws was refused by the ticket auth: the server selected subprotocol "hermes-gateway-ticket\.\*\*\*", not hermes-gateway-v1$/);
  } finally {
    await server.close();
  }
});

test('an auth kind that fails to present fails the connection, before anything is opened', async () => {
  const failing: ConnectionAuth = { kind: 'ticket', present: () => Promise.reject(new HarnessError('GATEWAY_UNREACHABLE', 'the ticket endpoint answered 503')) };
  await expect(connectTarget({ dialect: HERMES_DIALECT, target: 'ws://127.0.0.1:9/api/ws', auth: failing })).rejects.toThrow('the ticket endpoint answered 503');
});

test.describe('over HTTP', () => {
  let gateway: RunningGateway;
  let recorder: Server;
  const seen: Array<{ url: string | undefined; authorization: string | undefined; body: string }> = [];
  let recorderUrl = '';

  test.beforeAll(async () => {
    gateway = await startGateway({ token: TOKEN, buildDelayMs: 5 });
    recorder = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        seen.push({ url: request.url, authorization: request.headers.authorization, body });
        const frame = JSON.parse(body) as { id?: unknown };
        if (frame.id === undefined) return void response.writeHead(204).end();
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: frame.id, result: 'ok' }));
      });
    });
    await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', () => resolve()));
    recorderUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}/api/rpc`;
  });
  test.afterAll(async () => {
    await gateway.close();
    await new Promise((resolve) => recorder.close(resolve));
  });

  test('connectTarget with an http(s) URL posts each request, token as a Bearer header only', async () => {
    const client = await connectTarget({ dialect: HERMES_DIALECT, target: gateway.httpUrl, token: TOKEN });
    expect(client.ready).toBeUndefined();
    const created = await client.call('session.create', {});
    expect(outcomeOf(created).kind).toBe('result');
    expect(created.correlation).toBe('exact');
    await client.close();
    expect((await client.call('session.list', {})).failure?.code).toBe('CONNECTION_CLOSED');

    const recorded = await connectTarget({ dialect: HERMES_DIALECT, target: recorderUrl, token: TOKEN });
    await recorded.request('ping', {});
    recorded.sendRaw('{"jsonrpc":"2.0","method":"notify"}');
    await expect.poll(() => seen.length).toBe(2);
    expect(seen[0]).toEqual({ url: '/api/rpc', authorization: `Bearer ${TOKEN}`, body: '{"jsonrpc":"2.0","id":"r1","method":"ping","params":{}}' });
    expect(recorded.transcript.render()).not.toContain(TOKEN);
  });

  test('HttpRpcClient takes an auth kind: its query parameters and headers go on every POST', async () => {
    seen.length = 0;
    const auth: ConnectionAuth = { kind: 'ticket', present: () => Promise.resolve({ query: { ticket: 'tq-1' }, headers: { authorization: 'Ticket tq-1' }, secrets: ['tq-1'] }) };
    const client = new HttpRpcClient({ url: recorderUrl, auth });
    expect(outcomeOf(await client.call('a', {}))).toEqual({ kind: 'result', result: 'ok' });
    expect(seen[0]).toMatchObject({ url: '/api/rpc?ticket=tq-1', authorization: 'Ticket tq-1' });
    await client.close();
  });

  test('a POST that cannot be made is CONNECTION_CLOSED naming the URL, and a slow one times out', async () => {
    const refused = new HttpRpcClient({ url: 'http://127.0.0.1:9/api/rpc', token: TOKEN });
    const failed = await refused.call('a', {});
    expect(failed.failure?.code).toBe('CONNECTION_CLOSED');
    expect(failed.failure?.message).toMatch(/^\[CONNECTION_CLOSED\] POST to http:\/\/127\.0\.0\.1:9\/api\/rpc failed: /);
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    try {
      const slow = new HttpRpcClient({ url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`, requestTimeoutMs: 50 });
      expect((await slow.call('never', {})).failure?.message).toBe('[REQUEST_TIMEOUT] never did not answer within 50 ms');
      await slow.close();
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
