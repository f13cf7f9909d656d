import { expect, test } from './helpers/test.js';
import type { MemoryClient } from '../../gateway/index.js';
import { coreHarness, createReady, rpcError, sleep, turn } from './helpers/gatewayHarness.js';

const completes = (client: MemoryClient, sessionId: string) =>
  client.events(sessionId).filter((event) => event['type'] === 'message.complete').map((event) => event['payload']);

const history = async (client: MemoryClient, sessionId: string) =>
  (await client.call<{ messages: Array<{ role: string; text: string }> }>('session.history', { session_id: sessionId })).messages.map((m) => `${m.role}:${m.text}`);

test('an echo turn: message.start without payload, three deltas of "echo: <text>", message.complete; two rows committed', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const created = await createReady(client);
  expect(await client.call('prompt.submit', { session_id: created.session_id, text: 'hello world' })).toEqual({ status: 'streaming' });
  await client.waitForEvent('message.complete', created.session_id);
  const events = client.events(created.session_id).slice(1);
  expect(events.map((event) => event['type'])).toEqual(['message.start', 'message.delta', 'message.delta', 'message.delta', 'message.complete']);
  expect(events[0]).not.toHaveProperty('payload');
  expect(events.slice(1, 4).map((event) => (event['payload'] as { text: string }).text).join('')).toBe('echo: hello world');
  expect(events[4]?.['payload']).toEqual({ text: 'echo: hello world', status: 'complete' });
  expect(events.map((event) => event['seq'])).toEqual([2, 3, 4, 5, 6]);
  expect(await history(client, created.session_id)).toEqual(['user:hello world', 'assistant:echo: hello world']);
  harness.close();
});

test('a /fail turn: error {message}, then message.complete {text: "", status: "error"}, nothing committed', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const created = await createReady(client);
  const complete = await turn(client, created.session_id, '/fail disk on fire');
  expect(complete['payload']).toEqual({ text: '', status: 'error' });
  expect(client.events(created.session_id).map((event) => event['type'])).toEqual(['session.info', 'message.start', 'error', 'message.complete']);
  expect(client.events(created.session_id)[2]?.['payload']).toEqual({ message: 'disk on fire' });
  expect(await history(client, created.session_id)).toEqual([]);
  // The stored row exists (the prompt was accepted) but holds nothing.
  expect(harness.core.store.get(created.stored_session_id)?.messages).toEqual([]);
  harness.close();
});

test('/slow <ms> spreads the stream over that many milliseconds', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const created = await createReady(client);
  const started = Date.now();
  await turn(client, created.session_id, '/slow 120 take your time');
  expect(Date.now() - started).toBeGreaterThanOrEqual(110);
  expect(completes(client, created.session_id)).toEqual([{ text: 'echo: /slow 120 take your time', status: 'complete' }]);
  harness.close();
});

test('a busy session queues by default, steers with queued: false and redirects with interrupted: true', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const created = await createReady(client);
  const id = created.session_id;
  expect(await client.call('prompt.submit', { session_id: id, text: '/slow 150 first' })).toEqual({ status: 'streaming' });
  expect(await client.call('prompt.submit', { session_id: id, text: 'second' })).toEqual({ status: 'queued' });
  expect(await client.call('prompt.submit', { session_id: id, text: 'nudge', queued: false })).toEqual({ status: 'steered' });
  const snapshot = await client.call<{ inflight: { corrections: string[]; user: string }; queued: { user: string }; running: boolean }>('session.activate', { session_id: id });
  expect(snapshot.running).toBe(true);
  expect(snapshot.inflight).toMatchObject({ user: '/slow 150 first', corrections: ['nudge'], streaming: true });
  expect(snapshot.queued).toEqual({ user: 'second' });
  expect(await client.call('prompt.submit', { session_id: id, text: 'instead', interrupted: true })).toEqual({ status: 'redirected' });
  await client.waitFor(() => completes(client, id).length === 3);
  expect(completes(client, id).map((p) => (p as { status: string }).status)).toEqual(['interrupted', 'complete', 'complete']);
  expect(await history(client, id)).toEqual(['user:instead', 'assistant:echo: instead', 'user:second', 'assistant:echo: second']);
  harness.close();
});

test('session.interrupt stops the running turn (and the queue behind it); not_interrupted when idle', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const created = await createReady(client);
  const id = created.session_id;
  expect(await client.call('session.interrupt', { session_id: id })).toEqual({ status: 'not_interrupted', interrupted: false });
  await client.call('prompt.submit', { session_id: id, text: '/slow 300 long' });
  await client.call('prompt.submit', { session_id: id, text: 'queued' });
  await client.waitForEvent('message.delta', id);
  expect(await client.call('session.interrupt', { session_id: id, expected_hosted_task_id: 'task-1' })).toEqual({ status: 'not_interrupted', interrupted: false });
  expect(await client.call('session.interrupt', { session_id: id })).toEqual({ status: 'interrupted', interrupted: true });
  const [complete] = completes(client, id) as Array<{ text: string; status: string }>;
  expect(complete?.status).toBe('interrupted');
  expect('echo: /slow 300 long'.startsWith(complete?.text ?? 'x')).toBe(true);
  await sleep(20);
  expect(completes(client, id)).toHaveLength(1);
  expect(await history(client, id)).toEqual([]);
  harness.close();
});

test('session.steer / session.redirect: queued or redirected while a turn runs, rejected when idle, queued while building', async () => {
  const harness = coreHarness({ buildDelayMs: 30 });
  const client = harness.client();
  const building = await client.call<{ session_id: string }>('session.create', {});
  expect(await client.call('session.redirect', { session_id: building.session_id, text: 'after build' })).toEqual({ status: 'queued', text: 'after build' });
  await client.waitForEvent('message.complete', building.session_id);
  expect(await history(client, building.session_id)).toEqual(['user:after build', 'assistant:echo: after build']);
  const id = building.session_id;
  expect(await client.call('session.steer', { session_id: id, text: 'x' })).toEqual({ status: 'rejected', text: 'x' });
  expect(await client.call('session.redirect', { session_id: id, text: 'y' })).toEqual({ status: 'rejected', text: 'y' });
  await client.call('prompt.submit', { session_id: id, text: '/slow 200 working' });
  expect(await client.call('session.steer', { session_id: id, text: 'mind the tests' })).toEqual({ status: 'queued', text: 'mind the tests' });
  expect(await client.call('session.redirect', { session_id: id, text: 'new plan' })).toEqual({ status: 'redirected', text: 'new plan' });
  await client.waitFor(() => completes(client, id).length === 3);
  expect(completes(client, id).map((p) => (p as { status: string }).status)).toEqual(['complete', 'interrupted', 'complete']);
  expect((await history(client, id)).slice(2)).toEqual(['user:new plan', 'assistant:echo: new plan']);
  harness.close();
});

test('prompt.submit: 4001 for an unknown runtime id and no run starts; hidden display kind kept; rewind fields cut the history', async () => {
  const harness = coreHarness();
  const client = harness.client();
  expect(await rpcError(client.call('prompt.submit', { session_id: 'ffffffff', text: 'x' }))).toEqual({ code: 4001, message: 'session not found' });
  const created = await createReady(client);
  const id = created.session_id;
  await turn(client, id, 'one');
  await turn(client, id, 'two');
  const rows = (await client.call<{ messages: Array<{ row_id: number }> }>('session.history', { session_id: id })).messages;
  await client.call('prompt.submit', { session_id: id, text: 'two again', truncate_before_row_id: rows[2]?.row_id });
  await client.waitFor(() => completes(client, id).length === 3);
  expect(await history(client, id)).toEqual(['user:one', 'assistant:echo: one', 'user:two again', 'assistant:echo: two again']);
  await client.call('prompt.submit', { session_id: id, text: 'restart', truncate_before_user_ordinal: 0, display_kind: 'hidden' });
  await client.waitFor(() => completes(client, id).length === 4);
  const stored = harness.core.store.get(created.stored_session_id)?.messages ?? [];
  expect(stored.map((m) => [m.role, m.text, m.display_kind])).toEqual([['user', 'restart', 'hidden'], ['assistant', 'echo: restart', undefined]]);
  harness.close();
});

test('session.undo drops the last user turn; 4009 while a turn runs', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const created = await createReady(client);
  const id = created.session_id;
  expect(await client.call('session.undo', { session_id: id })).toEqual({ removed: 0 });
  await turn(client, id, 'keep');
  await turn(client, id, 'drop');
  expect(await client.call('session.undo', { session_id: id })).toEqual({ removed: 2 });
  expect(await history(client, id)).toEqual(['user:keep', 'assistant:echo: keep']);
  await client.call('prompt.submit', { session_id: id, text: '/slow 200 busy' });
  expect(await rpcError(client.call('session.undo', { session_id: id }))).toEqual({ code: 4009, message: 'session busy' });
  await client.call('session.interrupt', { session_id: id });
  harness.close();
});
