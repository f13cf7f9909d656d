import { expect, test } from './helpers/test.js';
import { coreHarness } from './helpers/gatewayHarness.js';

test('gateway.ready is the first frame: skin, change_events, heartbeat, a 32-hex replay_epoch, no session_id or seq', () => {
  const harness = coreHarness();
  const client = harness.client();
  expect(client.frames).toHaveLength(1);
  const params = client.frames[0]?.['params'] as Record<string, unknown>;
  expect(client.frames[0]?.['method']).toBe('event');
  expect(params['type']).toBe('gateway.ready');
  expect(params).not.toHaveProperty('session_id');
  expect(params).not.toHaveProperty('seq');
  const payload = params['payload'] as Record<string, unknown>;
  expect(payload['change_events']).toBe(true);
  expect(payload['heartbeat']).toBe(true);
  expect(payload['replay_epoch']).toMatch(/^[0-9a-f]{32}$/);
  expect(payload['replay_epoch']).toBe(harness.core.replayEpoch);
  expect(typeof payload['skin']).toBe('object');
  harness.close();
});

test('gateway.ping is answered inline with {ok: true}, whatever its params', async () => {
  const harness = coreHarness();
  const client = harness.client();
  expect(await client.request('gateway.ping', { anything: 1 }, 'heartbeat-1')).toEqual({ jsonrpc: '2.0', id: 'heartbeat-1', result: { ok: true } });
  harness.close();
});

test('one JSON value per frame: a trailing newline is tolerated, an empty frame is ignored', async () => {
  const harness = coreHarness();
  const client = harness.client();
  await client.send('{"jsonrpc":"2.0","id":1,"method":"gateway.ping"}\n');
  await client.send('');
  await client.send('  \n');
  expect(client.frames.slice(1)).toEqual([{ jsonrpc: '2.0', id: 1, result: { ok: true } }]);
  harness.close();
});

test('non-JSON answers -32700 with id null, and the connection keeps working', async () => {
  const harness = coreHarness();
  const client = harness.client();
  await client.send('{"jsonrpc": "2.0", "id": 1, "method": ');
  expect(client.frames.at(-1)).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: 'parse error' }, id: null });
  expect(JSON.stringify(client.frames.at(-1))).toBe('{"jsonrpc":"2.0","error":{"code":-32700,"message":"parse error"},"id":null}');
  expect((await client.request('gateway.ping'))['result']).toEqual({ ok: true });
  harness.close();
});

test('malformed envelopes answer -32600 invalid request (id echoed when valid, else null)', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const cases: Array<[unknown, unknown]> = [
    [[{ jsonrpc: '2.0', id: 1, method: 'gateway.ping' }], null],
    [42, null],
    ['"text"', null],
    [{ jsonrpc: '2.0', id: 'a' }, 'a'],
    [{ jsonrpc: '2.0', id: 'b', method: 7 }, 'b'],
    [{ jsonrpc: '1.0', id: 'c', method: 'gateway.ping' }, 'c'],
    [{ id: 'd', method: 'gateway.ping' }, 'd'],
    [{ jsonrpc: '2.0', id: { x: 1 }, method: 'gateway.ping' }, null],
  ];
  for (const [frame, id] of cases) {
    const before = client.frames.length;
    await client.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
    expect(client.frames.slice(before), JSON.stringify(frame)).toEqual([{ jsonrpc: '2.0', id, error: { code: -32600, message: 'invalid request' } }]);
  }
  harness.close();
});

test('ids of every JSON type are echoed exactly', async () => {
  const harness = coreHarness();
  const client = harness.client();
  for (const id of ['r1', 0, -5, 1.5, null]) {
    const before = client.frames.length;
    await client.send({ jsonrpc: '2.0', id, method: 'gateway.ping' });
    expect(client.frames[before]?.['id']).toBe(id);
  }
  harness.close();
});

test('a response to a server request is dropped silently; a notification gets no answer', async () => {
  const harness = coreHarness();
  const client = harness.client();
  await client.send({ jsonrpc: '2.0', id: 'srq-0123456789ab', result: { value: 'x' } });
  await client.send({ jsonrpc: '2.0', id: 'srq-unknown', error: { code: -32601, message: 'no handler' } });
  await client.send({ jsonrpc: '2.0', method: 'session.list', params: {} });
  expect(client.frames).toHaveLength(1);
  harness.close();
});

test('an unknown method answers -32601 with the out-of-sync suffix', async () => {
  const harness = coreHarness();
  const frame = await harness.client().request('session.handoff', {});
  expect(frame['error']).toEqual({
    code: -32601,
    message: 'unknown method: session.handoff \u2014 the client and the Hermes backend are out of sync (different versions); run `hermes update` and restart both',
  });
  harness.close();
});

test('a crashing handler answers -32603 internal error and the connection survives', async () => {
  const harness = coreHarness();
  const client = harness.client();
  harness.core.store.listable = () => {
    throw new Error('boom');
  };
  const frame = await client.request('session.list', {});
  expect(frame['error']).toEqual({ code: -32603, message: 'internal error' });
  expect(harness.logs.some((line) => line.includes('handler session.list crashed'))).toBe(true);
  expect((await client.request('gateway.ping'))['result']).toEqual({ ok: true });
  harness.close();
});

test('strict: true turns a result that breaks its contract into -32603; a function receives the violation', async () => {
  const raising = coreHarness({ strict: true });
  raising.core.replay.stats = () => ({ sessions: 'many' }) as never;
  const client = raising.client();
  expect((await client.request('session.events.stats', {}))['error']).toEqual({ code: -32603, message: 'internal error' });
  expect(raising.logs.some((line) => line.startsWith('contract violation: result of session.events.stats'))).toBe(true);
  raising.close();
});

test('every outgoing frame passes through the funnel, where an interceptor can rewrite, drop or duplicate it', async () => {
  const harness = coreHarness();
  const seen: string[] = [];
  harness.core.funnel.use((outbound) => {
    seen.push(`${outbound.kind}:${outbound.method ?? ''}`);
    if (outbound.method === 'session.list') return [];
    if (outbound.kind === 'response' && outbound.method === 'gateway.ping') return [outbound, outbound];
    return [outbound];
  });
  const client = harness.client();
  await client.send({ jsonrpc: '2.0', id: 1, method: 'gateway.ping' });
  await client.send({ jsonrpc: '2.0', id: 2, method: 'session.list', params: {} });
  expect(client.frames.map((frame) => frame['id'] ?? 'ready')).toEqual(['ready', 1, 1]);
  expect(seen).toEqual(['ready:', 'response:gateway.ping', 'response:session.list']);
  harness.close();
});
