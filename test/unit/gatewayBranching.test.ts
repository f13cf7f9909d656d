import { expect, test } from './helpers/test.js';
import { coreHarness, createReady, rpcError, turn } from './helpers/gatewayHarness.js';

interface Branch {
  session_id: string;
  stored_session_id: string;
  title: string;
  parent: string;
  message_count: number;
  messages?: Array<{ text: string }>;
  messages_omitted?: boolean;
  info: Record<string, unknown>;
}

test('session.branch: 4008 when empty; a persisted child with the lineage title, built at once, first N rows with count', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const parent = await createReady(client, { title: 'Trip' });
  expect(await rpcError(client.call('session.branch', { session_id: parent.session_id }))).toEqual({ code: 4008, message: 'nothing to branch \u2014 send a message first' });
  await turn(client, parent.session_id, 'one');
  await turn(client, parent.session_id, 'two');
  const child = await client.call<Branch>('session.branch', { session_id: parent.session_id });
  expect(child).toMatchObject({ title: 'Trip (branch)', parent: parent.stored_session_id, message_count: 4 });
  expect(child.session_id).not.toBe(parent.session_id);
  expect(child.info['lazy']).toBe(false);
  expect(harness.core.store.get(child.stored_session_id)?.parent).toBe(parent.stored_session_id);
  await client.waitForEvent('session.info', child.session_id);
  const second = await client.call<Branch>('session.branch', { session_id: parent.session_id, count: 2, name: 'Short' });
  expect(second).toMatchObject({ title: 'Short', message_count: 2 });
  expect(second.messages?.map((m) => m.text)).toEqual(['one', 'echo: one']);
  const third = await client.call<Branch>('session.branch', { session_id: parent.session_id });
  expect(third.title).toBe('Trip (branch 2)');
  // The child is an independent live session with its own history.
  await turn(client, child.session_id, 'child only');
  expect((await client.call<{ count: number }>('session.history', { session_id: parent.session_id })).count).toBe(4);
  expect((await client.call<{ count: number }>('session.history', { session_id: child.session_id })).count).toBe(6);
  harness.close();
});

test('session.branch_whole copies everything without echoing the transcript back', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const parent = await createReady(client);
  await turn(client, parent.session_id, 'x');
  const child = await client.call<Branch>('session.branch_whole', { session_id: parent.session_id, name: 'Whole' });
  expect(child).toMatchObject({ title: 'Whole', parent: parent.stored_session_id, message_count: 2, messages_omitted: true });
  expect(child).not.toHaveProperty('messages');
  harness.close();
});

test('session.branch_stored branches a stored row that is not live; 4007 unknown parent, 4008 empty parent', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const parent = await createReady(client, { title: 'Archive' });
  await turn(client, parent.session_id, 'old');
  await client.call('session.close', { session_id: parent.session_id });
  const child = await client.call<Branch>('session.branch_stored', { parent_session_id: parent.stored_session_id, cwd: '/' });
  expect(child).toMatchObject({ message_count: 2, messages_omitted: true });
  expect(child.info).toMatchObject({ cwd: '/', lazy: false, title: 'Archive (branch)' });
  expect((await client.call<{ count: number }>('session.history', { session_id: child.session_id })).count).toBe(2);
  expect(await rpcError(client.call('session.branch_stored', { parent_session_id: 'missing' }))).toEqual({ code: 4007, message: 'session not found' });
  const empty = await createReady(client);
  await turn(client, empty.session_id, '/fail nothing stored');
  expect((await rpcError(client.call('session.branch_stored', { parent_session_id: empty.stored_session_id }))).code).toBe(4008);
  harness.close();
});
