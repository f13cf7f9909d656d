import { expect, test } from './helpers/test.js';
import type { LifecycleEvent } from '../../gateway/index.js';
import { type Created, coreHarness, createReady, PRE_CWD_EXPLICIT_CONTRACT, rpcError, sleep, turn } from './helpers/gatewayHarness.js';

test('session.create answers at once with an 8-hex runtime id, the future stored key and the lazy info', async () => {
  const harness = coreHarness({ buildDelayMs: 40 });
  const client = harness.client();
  const created = await client.call<Created>('session.create', { model: 'echo', provider: 'acme', cwd: harness.dataDir, cols: 120 });
  expect(created.session_id).toMatch(/^[0-9a-f]{8}$/);
  expect(created.stored_session_id).toMatch(/^\d{8}_\d{6}_[0-9a-f]{6}$/);
  expect(created.message_count).toBe(0);
  expect(created.info).toMatchObject({ model: 'echo', provider: 'acme', tools: {}, skills: {}, cwd: harness.dataDir, lazy: true, desktop_contract: 2 });
  expect(client.events(created.session_id)).toEqual([]);
  // The agent builds about buildDelayMs after the reply, then session.info carries the full live info.
  const info = await client.waitForEvent('session.info', created.session_id);
  expect(info['seq']).toBe(1);
  expect(info['payload']).toMatchObject({ model: 'echo', lazy: false, stored_session_id: created.stored_session_id, running: false });
  harness.close();
});

test('no stored row until the first prompt; the pending title and hidden flag apply when it appears', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const created = await createReady(client, { title: 'Planning', hidden: true });
  expect(harness.core.store.get(created.stored_session_id)).toBeUndefined();
  expect((await client.call<{ sessions: unknown[] }>('session.list', { include_hidden: true })).sessions).toEqual([]);
  await turn(client, created.session_id, 'first');
  const row = harness.core.store.get(created.stored_session_id);
  expect(row).toMatchObject({ title: 'Planning', hidden: true });
  expect((await client.call<{ sessions: unknown[] }>('session.list', {})).sessions).toEqual([]);
  expect((await client.call<{ sessions: Array<{ id: string }> }>('session.list', { include_hidden: true })).sessions.map((s) => s.id)).toEqual([created.stored_session_id]);
  harness.close();
});

test('a seeded branch child (parent_session_id + messages) is persisted at once with a lineage title', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const parent = await createReady(client, { title: 'Root' });
  await turn(client, parent.session_id, 'hello');
  const child = await client.call<Created>('session.create', {
    parent_session_id: parent.stored_session_id,
    messages: [{ role: 'user', content: 'hello' }, { role: 'assistant', text: 'echo: hello', display_kind: 'hidden', _row_id: 3 }],
  });
  const row = harness.core.store.get(child.stored_session_id);
  expect(row).toMatchObject({ title: 'Root (branch)', parent: parent.stored_session_id });
  expect(row?.messages.map((m) => [m.role, m.text, m.display_kind])).toEqual([['user', 'hello', undefined], ['assistant', 'echo: hello', 'hidden']]);
  expect(child.message_count).toBe(2);
  // Seeds without a parent stay pending until the first prompt.
  const seeded = await client.call<Created>('session.create', { messages: [{ role: 'user', text: 'x' }] });
  expect(seeded.message_count).toBe(1);
  expect(harness.core.store.get(seeded.stored_session_id)).toBeUndefined();
  harness.close();
});

test('an explicit cwd must be an existing directory; cwd_explicit: false yields to a named profile', async () => {
  const harness = coreHarness();
  const client = harness.client();
  expect((await client.call<Created>('session.create', { cwd: '/', cwd_explicit: true })).info['cwd']).toBe('/');
  expect((await client.call<Created>('session.create', { cwd: '/definitely/not/here' })).info['cwd']).toBe(harness.dataDir);
  expect((await client.call<Created>('session.create', { cwd: '/', cwd_explicit: false, profile: 'work' })).info['cwd']).toBe(harness.dataDir);
  expect((await client.call<Created>('session.create', { cwd: '/', cwd_explicit: false })).info['cwd']).toBe('/');
  harness.close();
});

test('started with the pre-cwd-explicit document the gateway is an older backend: cwd_explicit answers 4000', async () => {
  const harness = coreHarness({ contractPaths: [PRE_CWD_EXPLICIT_CONTRACT] });
  const client = harness.client();
  const error = await rpcError(client.call('session.create', { cwd: '/', cwd_explicit: true }));
  expect(error).toEqual({
    code: 4000,
    message:
      'invalid params for session.create: cwd_explicit: Extra inputs are not permitted \u2014 the client and the Hermes backend are out of sync (different versions); run `hermes update` and restart both',
  });
  // The tolerant client's retry without the field succeeds and keeps the cwd.
  expect((await client.call<Created>('session.create', { cwd: '/' })).info['cwd']).toBe('/');
  expect((await client.call<Created>('session.create', {})).info['desktop_contract']).toBe(1);
  harness.close();
});

test('a fail-build model: an error event naming the model, then 5032 on later calls and {closed: false}', async () => {
  const harness = coreHarness();
  const lifecycle: LifecycleEvent[] = [];
  harness.core.lifecycle.on('agent.build_failed', (event) => lifecycle.push(event));
  harness.core.lifecycle.on('session.closed', (event) => lifecycle.push(event));
  const client = harness.client();
  const created = await client.call<Created>('session.create', { model: 'fail-build-7b' });
  const error = await client.waitForEvent('error', created.session_id);
  expect(error['payload']).toEqual({ message: 'agent init failed: model fail-build-7b could not be built' });
  for (const method of ['prompt.submit', 'session.history', 'session.undo']) {
    expect(await rpcError(client.call(method, { session_id: created.session_id }))).toEqual({ code: 5032, message: 'agent init failed: model fail-build-7b could not be built' });
  }
  expect(await client.call('session.close', { session_id: created.session_id })).toEqual({ closed: false });
  expect(lifecycle.map((event) => event.type)).toEqual(['agent.build_failed', 'session.closed']);
  expect(lifecycle[1]).toMatchObject({ reason: { kind: 'build_failed', message: 'agent init failed: model fail-build-7b could not be built' } });
  harness.close();
});

test('a prompt sent while the agent builds waits for it; one sent to a failing build answers 5032', async () => {
  const harness = coreHarness({ buildDelayMs: 30 });
  const client = harness.client();
  const ok = await client.call<Created>('session.create', {});
  expect(await client.call('prompt.submit', { session_id: ok.session_id, text: 'early' })).toEqual({ status: 'streaming' });
  // Order on the wire: the build's session.info, then the prompt's answer, then the turn (an instant one, whole).
  const order = client.frames.slice(2).map((frame) => (frame['method'] === 'event' ? (frame['params'] as { type: string }).type : 'answer'));
  expect(order).toEqual(['session.info', 'answer', 'message.start', 'message.delta', 'message.delta', 'message.delta', 'message.complete']);
  const failing = await client.call<Created>('session.create', { model: 'fail-build' });
  expect((await rpcError(client.call('prompt.submit', { session_id: failing.session_id, text: 'x' }))).code).toBe(5032);
  await sleep(5);
  harness.close();
});

test('lifecycle events: created, agent built, turn committed, turn failed, closed by the client', async () => {
  const harness = coreHarness();
  const seen: string[] = [];
  for (const type of ['session.created', 'agent.built', 'turn.committed', 'turn.failed', 'session.closed'] as const) {
    harness.core.lifecycle.on(type, (event) => seen.push(event.type === 'session.closed' ? `${event.type}:${event.reason.kind}:${event.interactionCount}` : event.type));
  }
  const client = harness.client();
  const created = await createReady(client);
  await turn(client, created.session_id, 'one');
  await turn(client, created.session_id, '/fail nope');
  await client.call('session.close', { session_id: created.session_id });
  expect(seen).toEqual(['session.created', 'agent.built', 'turn.committed', 'turn.failed', 'session.closed:client_close:1']);
  harness.close();
});
