import { expect, test } from './helpers/test.js';
import type { LifecycleEvent } from '../../gateway/index.js';
import { type Created, coreHarness, createReady, rpcError, sleep, turn } from './helpers/gatewayHarness.js';

test('session.close tears a live session down once; the stored row stays resumable with its history', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const created = await createReady(client);
  await turn(client, created.session_id, 'keep');
  expect(await client.call('session.close', { session_id: created.session_id })).toEqual({ closed: true });
  expect(await client.call('session.close', { session_id: created.session_id })).toEqual({ closed: false });
  expect(await client.call('session.close', { session_id: 'deadbeef' })).toEqual({ closed: false });
  expect(await rpcError(client.call('session.history', { session_id: created.session_id }))).toEqual({ code: 4001, message: 'session not found' });
  const resumed = await client.call<Created>('session.resume', { session_id: created.stored_session_id });
  expect(resumed.message_count).toBe(2);
  harness.close();
});

test('session.delete: 4023 while live, then deleted after close; 4007 for an unknown row', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const created = await createReady(client);
  await turn(client, created.session_id, 'x');
  expect(await rpcError(client.call('session.delete', { session_id: created.stored_session_id }))).toEqual({ code: 4023, message: 'cannot delete an active session' });
  await client.call('session.close', { session_id: created.session_id });
  expect(await client.call('session.delete', { session_id: created.stored_session_id })).toEqual({ deleted: created.stored_session_id });
  expect(await rpcError(client.call('session.delete', { session_id: created.stored_session_id }))).toEqual({ code: 4007, message: 'session not found' });
  expect(await rpcError(client.call('session.resume', { session_id: created.stored_session_id }))).toMatchObject({ code: 4007 });
  harness.close();
});

test('close_on_disconnect: the session is reaped with the close code and reason when its connection drops', async () => {
  const harness = coreHarness();
  const closed: LifecycleEvent[] = [];
  harness.core.lifecycle.on('session.closed', (event) => closed.push(event));
  const client = harness.client();
  const created = await createReady(client, { close_on_disconnect: true });
  await turn(client, created.session_id, 'one');
  client.close(1006, 'abnormal');
  expect(closed).toEqual([{ type: 'session.closed', sessionId: created.session_id, storedKey: created.stored_session_id, reason: { kind: 'close_on_disconnect', code: 1006, reason: 'abnormal' }, interactionCount: 1 }]);
  expect(harness.core.live.get(created.session_id)).toBeUndefined();
  expect(harness.core.store.get(created.stored_session_id)?.messages).toHaveLength(2);
  harness.close();
});

test('the orphan reaper closes a detached session after the grace window', async () => {
  const harness = coreHarness({ orphanGraceMs: 30 });
  const closed: LifecycleEvent[] = [];
  harness.core.lifecycle.on('session.closed', (event) => closed.push(event));
  const client = harness.client();
  const created = await createReady(client);
  client.close(1001, 'going away');
  expect(harness.core.live.get(created.session_id)?.binding).toBeUndefined();
  await sleep(60);
  expect(closed.map((event) => event.type === 'session.closed' && event.reason.kind)).toEqual(['orphan_reap']);
  expect(harness.core.live.get(created.session_id)).toBeUndefined();
  harness.close();
});

test('a quick session.resume (or activate) cancels the orphan reap and rebinds the session', async () => {
  const harness = coreHarness({ orphanGraceMs: 40 });
  const first = harness.client();
  const created = await createReady(first);
  await turn(first, created.session_id, 'x');
  const other = await createReady(first);
  first.close(1006, '');
  const second = harness.client();
  expect((await second.call<Created>('session.resume', { session_id: created.stored_session_id })).session_id).toBe(created.session_id);
  await second.call('session.activate', { session_id: other.session_id });
  await sleep(70);
  // Connections are numbered in the order they open: c1 is the closed one, c2 the one that resumed and activated.
  expect(harness.core.live.get(created.session_id)?.binding).toMatchObject({ id: 'c2', open: true });
  expect(harness.core.live.get(other.session_id)?.binding).toMatchObject({ id: 'c2', open: true });
  await turn(second, created.session_id, 'still here');
  harness.close();
});

test('events go only to the connection the session is bound to', async () => {
  const harness = coreHarness();
  const owner = harness.client();
  const bystander = harness.client();
  const created = await createReady(owner);
  await bystander.call('prompt.submit', { session_id: created.session_id, text: 'typed elsewhere' });
  await owner.waitForEvent('message.complete', created.session_id);
  expect(bystander.events(created.session_id)).toEqual([]);
  expect(owner.events(created.session_id).map((event) => event['type'])).toEqual(['session.info', 'message.start', 'message.delta', 'message.delta', 'message.delta', 'message.complete']);
  harness.close();
});

test('restart keeps stored rows, drops live sessions and sockets, and changes the replay epoch', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const created = await createReady(client);
  await turn(client, created.session_id, 'persisted');
  const epoch = harness.core.replayEpoch;
  harness.core.restart();
  expect(client.closed?.code).toBe(1012);
  expect(harness.core.replayEpoch).not.toBe(epoch);
  const again = harness.client();
  expect(((again.frames[0]?.['params'] as Record<string, unknown>)['payload'] as Record<string, unknown>)['replay_epoch']).toBe(harness.core.replayEpoch);
  const resumed = await again.call<Created>('session.resume', { session_id: created.stored_session_id });
  expect(resumed.message_count).toBe(2);
  const replay = await again.call<{ latest_seq: number; truncated: boolean; epoch: string }>('session.events.since', { session_id: created.session_id, last_seen: 6 });
  expect(replay).toMatchObject({ latest_seq: 0, truncated: true, epoch: harness.core.replayEpoch });
  harness.close();
});
