import { expect, test } from './helpers/test.js';
import type { MemoryClient } from '../../gateway/index.js';
import { type Created, coreHarness, createReady, rpcError, turn } from './helpers/gatewayHarness.js';

type Snapshot = Record<string, unknown> & { session_id: string; message_count: number; messages: unknown[]; info: Record<string, unknown> };

/** A stored session with one committed turn whose live session is closed again. */
async function closedStored(client: MemoryClient, title = 'Stored'): Promise<Created> {
  const created = await createReady(client, { title });
  await turn(client, created.session_id, 'remember me');
  await client.call('session.close', { session_id: created.session_id });
  return created;
}

test('cold resume: a new runtime id, the transcript now, the agent built after the reply', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const stored = await closedStored(client);
  const resumed = await client.call<Snapshot>('session.resume', { session_id: stored.stored_session_id });
  expect(resumed.session_id).toMatch(/^[0-9a-f]{8}$/);
  expect(resumed.session_id).not.toBe(stored.session_id);
  expect(resumed).toMatchObject({ message_count: 2, resumed: stored.stored_session_id, session_key: stored.stored_session_id, running: false, inflight: null, open_requests: [] });
  expect(resumed.messages.map((m) => (m as { text: string }).text)).toEqual(['remember me', 'echo: remember me']);
  expect(resumed.info['lazy']).toBe(true);
  const info = await client.waitForEvent('session.info', resumed.session_id);
  expect((info['payload'] as { lazy: boolean }).lazy).toBe(false);
  harness.close();
});

test('resume by exact title; 4006 without an id; 4007 for an unknown id or title', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const stored = await closedStored(client, 'Exact Title');
  const byTitle = await client.call<Snapshot>('session.resume', { session_id: 'Exact Title' });
  expect(byTitle['session_key']).toBe(stored.stored_session_id);
  expect(await rpcError(client.call('session.resume', { session_id: '' }))).toEqual({ code: 4006, message: 'session_id required' });
  expect(await rpcError(client.call('session.resume', { session_id: 'exact title' }))).toEqual({ code: 4007, message: 'session not found' });
  harness.close();
});

test('omit_messages: no messages but the stored count; defer_history: an ack, then resume_progress loading → complete', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const stored = await closedStored(client);
  const omitted = await client.call<Snapshot>('session.resume', { session_id: stored.stored_session_id, omit_messages: true });
  expect(omitted).toMatchObject({ messages: [], message_count: 2, messages_omitted: true });
  await client.call('session.close', { session_id: omitted.session_id });
  const deferred = await client.call<Snapshot>('session.resume', { session_id: stored.stored_session_id, defer_history: true });
  expect(deferred).toMatchObject({ messages: [], message_count: 2, hydrating: true, status: 'resuming' });
  const complete = await client.waitForEvent('session.resume_progress', deferred.session_id, (p) => (p['payload'] as { status: string }).status === 'complete');
  expect(complete['payload']).toEqual({ phase: 'history', status: 'complete', message_count: 2 });
  const progress = client.events(deferred.session_id).filter((event) => event['type'] === 'session.resume_progress');
  expect(progress.map((event) => (event['payload'] as { status: string }).status)).toEqual(['loading', 'complete']);
  harness.close();
});

test('eager_build: the agent is built before the reply; lazy: no agent until a prompt upgrades it', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const stored = await closedStored(client);
  const eager = await client.call<Snapshot>('session.resume', { session_id: stored.stored_session_id, eager_build: true });
  expect(eager.info['lazy']).toBe(false);
  expect(eager.info['stored_session_id']).toBe(stored.stored_session_id);
  await client.call('session.close', { session_id: eager.session_id });
  const lazy = await client.call<Snapshot>('session.resume', { session_id: stored.stored_session_id, lazy: true });
  expect(lazy).toMatchObject({ status: 'idle', message_count: 2 });
  expect(harness.core.live.get(lazy.session_id)?.agent).toBe('none');
  const complete = await turn(client, lazy.session_id, 'wake up');
  expect(complete['payload']).toEqual({ text: 'echo: wake up', status: 'complete' });
  expect(harness.core.live.get(lazy.session_id)?.agent).toBe('ready');
  harness.close();
});

test('a transcript over sessions.max_resume_messages is refused with 4130 unless no messages are sent back', async () => {
  const harness = coreHarness({ maxResumeMessages: 3 });
  const client = harness.client();
  const parent = await closedStored(client);
  const child = await client.call<Created>('session.create', {
    parent_session_id: parent.stored_session_id,
    messages: Array.from({ length: 4 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `m${i}` })),
  });
  await client.call('session.close', { session_id: child.session_id });
  const refused = await rpcError(client.call('session.resume', { session_id: child.stored_session_id }));
  expect(refused.code).toBe(4130);
  expect(refused.message).toMatch(/^resume refused: /);
  expect((await client.call<Snapshot>('session.resume', { session_id: child.stored_session_id, omit_messages: true })).message_count).toBe(4);
  harness.close();
});

test('reuse-live fast path: a live session keeps its runtime id and is rebound to the caller', async () => {
  const harness = coreHarness();
  const first = harness.client();
  const second = harness.client();
  const created = await createReady(first);
  await turn(first, created.session_id, 'one');
  const resumed = await second.call<Snapshot>('session.resume', { session_id: created.stored_session_id });
  expect(resumed.session_id).toBe(created.session_id);
  expect(resumed['resumed']).toBe(created.stored_session_id);
  await turn(second, created.session_id, 'two');
  expect(first.events(created.session_id).filter((e) => e['type'] === 'message.complete')).toHaveLength(1);
  expect(second.events(created.session_id).filter((e) => e['type'] === 'message.complete')).toHaveLength(1);
  harness.close();
});

test('a live session without a row yet is reattached by its key or pending title', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const created = await createReady(client, { title: 'Draft' });
  const byKey = await client.call<Snapshot>('session.resume', { session_id: created.stored_session_id });
  expect(byKey.session_id).toBe(created.session_id);
  expect(byKey.info).toEqual({ model: 'echo', lazy: true, profile_name: null });
  expect((await client.call<Snapshot>('session.resume', { session_id: 'Draft' })).session_id).toBe(created.session_id);
  harness.close();
});

test('session.activate rebinds a live session to the caller without an agent wait; 4001 for an unknown id', async () => {
  const harness = coreHarness();
  const owner = harness.client();
  const viewer = harness.client();
  const created = await createReady(owner);
  await turn(owner, created.session_id, 'before');
  const snapshot = await viewer.call<Snapshot>('session.activate', { session_id: created.session_id, cols: 99, omit_messages: true });
  expect(snapshot).toMatchObject({ session_id: created.session_id, messages: [], messages_omitted: true, message_count: 2 });
  expect(snapshot['resumed']).toBeUndefined();
  await turn(viewer, created.session_id, 'after');
  expect(owner.events(created.session_id).filter((e) => e['type'] === 'message.complete')).toHaveLength(1);
  expect(await rpcError(viewer.call('session.activate', { session_id: 'ffffffff' }))).toEqual({ code: 4001, message: 'session not found' });
  harness.close();
});
