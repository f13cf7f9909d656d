import { expect, test, type WireEvent } from 'contract-gate/test';

interface Created {
  session_id: string;
  stored_session_id: string;
}

test('a created session shows up in session.list once it has a turn', async ({ gateway, events, expectResult }) => {
  const created = await gateway.request<Created>('session.create', {});
  expectResult('session.create', created);
  await events.waitFor('session.info', { sessionId: created.session_id });
  const since = events.length;
  await gateway.request('prompt.submit', { session_id: created.session_id, text: 'hello' });
  await events.waitFor('message.complete', { sessionId: created.session_id, since });

  const listed = await gateway.request<{ sessions: { id: string }[] }>('session.list', {});
  await expect(listed).toMatchResultOf('session.list');
  expect(listed.sessions.map((row) => row.id)).toContain(created.stored_session_id);
});

test('undoing a turn answers how many messages it removed', async ({ gateway, events }) => {
  const { session_id } = await gateway.request<Created>('session.create', {});
  await events.waitFor('session.info', { sessionId: session_id });
  const since = events.length;
  await gateway.request('prompt.submit', { session_id, text: 'hello' });
  await events.waitFor('message.complete', { sessionId: session_id, since });

  const undone = await gateway.request('session.undo', { session_id });
  await expect(undone).toMatchResultOf('session.undo');
});

test('a resumed session reports its history loading in events that match the contract', async ({ gateway, connect, expectEvent }) => {
  const { session_id, stored_session_id } = await gateway.request<Created>('session.create', {});
  await gateway.waitForEvent({ type: 'session.info', sessionId: session_id });
  await gateway.request('prompt.submit', { session_id, text: 'hello' });
  await gateway.waitForEvent({ type: 'message.complete', sessionId: session_id });
  await gateway.request('session.close', { session_id });

  // Another client picks the stored session up and loads its history in the background.
  const other = await connect();
  const resumed = await other.request<{ session_id: string }>('session.resume', { session_id: stored_session_id, defer_history: true });
  const loaded = (event: WireEvent): boolean => (event.payload as { status?: string } | undefined)?.status === 'complete';
  const complete = await other.waitForEvent({ type: 'session.resume_progress', sessionId: resumed.session_id, where: loaded });
  for (const event of other.events.all({ type: 'session.resume_progress' })) expectEvent(event);
  expect(complete.payload).toMatchObject({ message_count: 2 });
});
