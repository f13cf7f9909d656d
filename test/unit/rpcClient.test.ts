import { HarnessError, outcomeOf } from '../../core/index.js';
import { expect, test } from './helpers/test.js';
import { WebSocketServer } from 'ws';
import { startGateway, type RunningGateway } from '../../gateway/index.js';
import { HttpRpcClient, Redactor, RpcClient, Transcript } from '../../src/client/index.js';
import { HERMES_DIALECT } from '../../profiles/hermes/dialect.js';

const TOKEN = 'tok-3f9a1c-very-secret';
let gateway: RunningGateway;

test.beforeAll(async () => {
  gateway = await startGateway({ token: TOKEN, buildDelayMs: 5 });
});
test.afterAll(async () => gateway.close());

test('waits for gateway.ready and correlates string ids', async () => {
  const client = await RpcClient.connect({ dialect: HERMES_DIALECT, url: gateway.url, token: TOKEN });
  expect(client.ready?.type).toBe('gateway.ready');
  const exchange = await client.call('session.list', {});
  expect(exchange.correlation).toBe('exact');
  expect(exchange.id).toMatch(/^r\d+$/);
  expect(outcomeOf(exchange).kind).toBe('result');
  await client.close();
});

test('a request that gets no answer is a REQUEST_TIMEOUT naming the method and the milliseconds', async () => {
  const silent = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => silent.once('listening', resolve));
  const { port } = silent.address() as { port: number };
  const client = await RpcClient.connect({ dialect: HERMES_DIALECT, url: `ws://127.0.0.1:${port}/api/ws`, readyTimeoutMs: 0 });
  const exchange = await client.call('session.create', {}, { timeoutMs: 50 });
  expect(exchange.failure?.code).toBe('REQUEST_TIMEOUT');
  expect(exchange.failure?.message).toBe('[REQUEST_TIMEOUT] session.create did not answer within 50 ms');
  await expect(client.request('session.list', {}, { timeoutMs: 20 })).rejects.toThrow('[REQUEST_TIMEOUT] session.list did not answer within 20 ms');
  await client.close();
  silent.close();
});

test('events can be awaited by type and session, including ones that already arrived', async () => {
  const client = await RpcClient.connect({ dialect: HERMES_DIALECT, url: gateway.url, token: TOKEN });
  const created = await client.request<{ session_id: string }>('session.create', {});
  const info = await client.waitForEvent({ type: 'session.info', sessionId: created.session_id }, 5_000);
  expect(info.session_id).toBe(created.session_id);
  await client.request('prompt.submit', { session_id: created.session_id, text: 'hi' });
  await client.waitForEvent({ type: 'message.complete', sessionId: created.session_id }, 5_000);
  const types = client.events.all({ sessionId: created.session_id }).map((e) => e.type);
  expect(types).toEqual(['session.info', 'message.start', 'tool.start', 'tool.complete', 'message.delta', 'message.delta', 'message.delta', 'message.complete']);
  await expect(client.waitForEvent({ type: 'message.complete', sessionId: 'nobody' }, 50)).rejects.toThrow(/EVENT_TIMEOUT/);
  await client.close();
});

test('the token never appears in transcripts, even when it came inside the URL', async () => {
  const transcript = new Transcript(new Redactor([TOKEN]));
  const client = await RpcClient.connect({ dialect: HERMES_DIALECT, url: `${gateway.url}?token=${TOKEN}`, transcript });
  await client.request('session.list', { title: TOKEN });
  await client.close();
  const text = transcript.render();
  expect(text).toContain('token=***');
  expect(text).not.toContain(TOKEN);
  expect(new Redactor([]).redact('wss://h/api/ws?ticket=abc&x=1')).toBe('wss://h/api/ws?ticket=***&x=1');
});

test('a refused token is GATEWAY_UNREACHABLE naming the close code and the fix, without the token', async () => {
  const error = await RpcClient.connect({ dialect: HERMES_DIALECT, url: gateway.url, token: 'wrong-token-123' }).catch((e: unknown) => e);
  expect(HarnessError.is(error)).toBe(true);
  expect((error as Error).message).toContain('4401');
  expect((error as Error).message).toContain('--token-env');
  expect((error as Error).message).not.toContain('wrong-token-123');
});

test('an unreachable target is GATEWAY_UNREACHABLE', async () => {
  const error = await RpcClient.connect({ dialect: HERMES_DIALECT, url: 'ws://127.0.0.1:9/api/ws', connectTimeoutMs: 1_000 }).catch((e: unknown) => e);
  expect((error as HarnessError).code).toBe('GATEWAY_UNREACHABLE');
});

test('JSON-RPC over HTTP POST reaches the same dispatch, token as a Bearer header', async () => {
  const client = new HttpRpcClient({ url: gateway.httpUrl, token: TOKEN });
  const exchange = await client.call('session.create', {});
  expect(outcomeOf(exchange).kind).toBe('result');
  expect(exchange.correlation).toBe('exact');
  const unknown = await client.call('no.such_method', {});
  const outcome = outcomeOf(unknown);
  expect(outcome.kind === 'error' && outcome.code).toBe(-32601);
  expect(client.transcript.render()).not.toContain(TOKEN);
});
