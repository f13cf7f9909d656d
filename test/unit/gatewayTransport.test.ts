import { expect, test } from './helpers/test.js';
import { existsSync, readFileSync } from 'node:fs';
import { type ContractViolation, type RunningGateway, startGateway } from '../../gateway/index.js';
import { WsTestClient } from './helpers/gatewayWsClient.js';

const LINUX_PORT_RANGE = '/proc/sys/net/ipv4/ip_local_port_range';

let gateway: RunningGateway;
const violations: ContractViolation[] = [];

test.beforeAll(async () => {
  gateway = await startGateway({ token: 's3cret', allowedOrigins: ['http://app.local'], buildDelayMs: 5, strict: (violation) => violations.push(violation) });
});

test.afterAll(async () => {
  await gateway.close();
  expect(violations).toEqual([]);
});

const wsUrl = () => `${gateway.url}?token=s3cret`;

function ephemeralPorts(): [number, number] {
  const range = existsSync(LINUX_PORT_RANGE) ? readFileSync(LINUX_PORT_RANGE, 'utf8').trim().split(/\s+/).map(Number) : [];
  return range.length === 2 && range.every(Number.isInteger) ? [range[0] as number, range[1] as number] : [1024, 65535];
}

test('startGateway listens on an ephemeral port and reports ws and http URLs', () => {
  // Port 0 lets the OS pick from its ephemeral range (Linux says which; elsewhere any unprivileged port).
  const [low, high] = ephemeralPorts();
  expect(Number.isInteger(gateway.port), String(gateway.port)).toBe(true);
  expect(gateway.port, `an ephemeral port: ${low}-${high}`).toBeGreaterThanOrEqual(low);
  expect(gateway.port, `an ephemeral port: ${low}-${high}`).toBeLessThanOrEqual(high);
  expect(gateway.url).toBe(`ws://127.0.0.1:${gateway.port}/api/ws`);
  expect(gateway.httpUrl).toBe(`http://127.0.0.1:${gateway.port}/api/rpc`);
  expect(gateway.replayEpoch).toMatch(/^[0-9a-f]{32}$/);
});

test('a wrong or missing token closes the socket with 4401; an origin outside the list with 4403', async () => {
  expect(await (await WsTestClient.open(gateway.url)).waitClosed()).toEqual({ code: 4401, reason: 'unauthorized' });
  expect((await (await WsTestClient.open(`${gateway.url}?token=nope`)).waitClosed()).code).toBe(4401);
  expect(await (await WsTestClient.open(wsUrl(), { origin: 'http://evil.local' })).waitClosed()).toEqual({ code: 4403, reason: 'origin not allowed' });
  const allowed = await WsTestClient.open(wsUrl(), { origin: 'http://app.local' });
  await allowed.waitFor((frame) => frame['method'] === 'event');
  allowed.close();
});

test('over WebSocket: gateway.ready first, ping, a trailing newline tolerated, a session streams its events', async () => {
  const client = await WsTestClient.open(wsUrl());
  const ready = await client.waitFor(() => true);
  expect((ready['params'] as Record<string, unknown>)['type']).toBe('gateway.ready');
  client.sendRaw('{"jsonrpc":"2.0","id":"p","method":"gateway.ping"}\n');
  expect((await client.waitFor((frame) => frame['id'] === 'p'))['result']).toEqual({ ok: true });
  const created = await client.call<{ session_id: string }>('session.create', {});
  await client.call('prompt.submit', { session_id: created.session_id, text: 'over the wire' });
  const complete = await client.waitFor((frame) => (frame['params'] as Record<string, unknown> | undefined)?.['type'] === 'message.complete');
  expect((complete['params'] as Record<string, unknown>)['payload']).toMatchObject({ text: 'echo: over the wire', status: 'complete' });
  client.sendRaw('not json');
  expect((await client.waitFor((frame) => (frame['error'] as { code: number } | undefined)?.code === -32700))['id']).toBeNull();
  expect(await client.call('gateway.ping')).toEqual({ ok: true });
  client.close();
});

test('HTTP POST /api/rpc answers the same dispatch with the token as query parameter or bearer header', async () => {
  const post = (url: string, body: string, headers: Record<string, string> = {}) =>
    fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  const request = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'session.events.stats', params: {} });
  expect((await post(gateway.httpUrl, request)).status).toBe(401);
  const byQuery = await post(`${gateway.httpUrl}?token=s3cret`, request);
  expect(byQuery.status).toBe(200);
  expect(await byQuery.json()).toMatchObject({ jsonrpc: '2.0', id: 1, result: { max_per_session: 512 } });
  const byHeader = await post(gateway.httpUrl, JSON.stringify({ jsonrpc: '2.0', id: 'c', method: 'session.create', params: {} }), { authorization: 'Bearer s3cret' });
  const created = (await byHeader.json()) as { result: { session_id: string } };
  expect(created.result.session_id).toMatch(/^[0-9a-f]{8}$/);
  const history = await post(`${gateway.httpUrl}?token=s3cret`, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'session.history', params: { session_id: created.result.session_id } }));
  expect(await history.json()).toEqual({ jsonrpc: '2.0', id: 2, result: { count: 0, messages: [] } });
  expect(await (await post(`${gateway.httpUrl}?token=s3cret`, '{oops')).json()).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: 'parse error' }, id: null });
  expect((await post(`${gateway.httpUrl}?token=s3cret`, JSON.stringify({ jsonrpc: '2.0', method: 'gateway.ping' }))).status).toBe(204);
  expect((await fetch(`${gateway.httpUrl}?token=s3cret`)).status).toBe(405);
  expect((await post(`${gateway.httpUrl}?token=s3cret`, request, { origin: 'http://evil.local' })).status).toBe(403);
});

test('restart: same port, stored rows kept, every socket closed, a new replay epoch', async () => {
  const client = await WsTestClient.open(wsUrl());
  await client.waitFor(() => true);
  const created = await client.call<{ session_id: string; stored_session_id: string }>('session.create', {});
  await client.call('prompt.submit', { session_id: created.session_id, text: 'before restart' });
  await client.waitFor((frame) => (frame['params'] as Record<string, unknown> | undefined)?.['type'] === 'message.complete');
  const epoch = gateway.replayEpoch;
  const port = gateway.port;
  await gateway.restart();
  expect((await client.waitClosed()).code).toBe(1012);
  expect(gateway.port).toBe(port);
  expect(gateway.replayEpoch).not.toBe(epoch);
  const again = await WsTestClient.open(wsUrl());
  const ready = await again.waitFor(() => true);
  expect(((ready['params'] as Record<string, unknown>)['payload'] as Record<string, unknown>)['replay_epoch']).toBe(gateway.replayEpoch);
  const resumed = await again.call<{ message_count: number }>('session.resume', { session_id: created.stored_session_id });
  expect(resumed.message_count).toBe(2);
  again.close();
});

test('an abnormal drop of a close_on_disconnect owner reaps its session with the close code', async () => {
  const closed: string[] = [];
  const off = gateway.core.lifecycle.on('session.closed', (event) => {
    if (event.reason.kind === 'close_on_disconnect') closed.push(`${event.sessionId}:${event.reason.code}`);
  });
  const client = await WsTestClient.open(wsUrl());
  await client.waitFor(() => true);
  const created = await client.call<{ session_id: string }>('session.create', { close_on_disconnect: true });
  client.socket.terminate();
  await expect.poll(() => closed).toEqual([`${created.session_id}:1006`]);
  off();
});
