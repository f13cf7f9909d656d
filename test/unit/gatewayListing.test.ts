import { expect, test } from './helpers/test.js';
import { coreHarness, createReady, rpcError, turn } from './helpers/gatewayHarness.js';

interface ListRow {
  id: string;
  title: string;
  preview: string;
  message_count: number;
  source: string;
}

test('session.list: stored rows newest first, hidden only on request, sub-agent sources denied, exact title, limit', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const a = await createReady(client, { title: 'Alpha', source: 'desktop' });
  await turn(client, a.session_id, 'first question');
  const b = await createReady(client, { title: 'Beta', hidden: true });
  await turn(client, b.session_id, 'secret');
  const c = await createReady(client, { title: 'Gamma' });
  await turn(client, c.session_id, 'third');
  const sub = await createReady(client, { source: 'subagent' });
  await turn(client, sub.session_id, 'worker');
  const list = (params: Record<string, unknown>) => client.call<{ sessions: ListRow[] }>('session.list', params).then((r) => r.sessions);
  expect((await list({})).map((row) => row.title)).toEqual(['Gamma', 'Alpha']);
  expect((await list({ include_hidden: true })).map((row) => row.title)).toEqual(['Gamma', 'Beta', 'Alpha']);
  expect((await list({ limit: 1 })).map((row) => row.title)).toEqual(['Gamma']);
  expect(await list({ title: 'Alpha' })).toEqual([
    { id: a.stored_session_id, title: 'Alpha', preview: 'first question', started_at: expect.any(Number), message_count: 2, source: 'desktop' },
  ]);
  expect(await list({ title: 'Beta' })).toEqual([]);
  harness.close();
});

test('session.most_recent: the newest human-facing row, or a null session_id', async () => {
  const harness = coreHarness();
  const client = harness.client();
  expect(await client.call('session.most_recent', {})).toEqual({ session_id: null });
  const created = await createReady(client, { title: 'Latest', source: 'tui' });
  await turn(client, created.session_id, 'x');
  const hidden = await createReady(client, { hidden: true });
  await turn(client, hidden.session_id, 'y');
  expect(await client.call('session.most_recent', {})).toEqual({ session_id: created.stored_session_id, title: 'Latest', started_at: expect.any(Number), source: 'tui' });
  harness.close();
});

test('session.active_list: live sessions in insertion order, hidden ones only when current', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const one = await createReady(client, { title: 'One' });
  const secret = await createReady(client, { hidden: true });
  const two = await createReady(client);
  await turn(client, two.session_id, 'hi');
  const items = (await client.call<{ sessions: Array<Record<string, unknown>> }>('session.active_list', { current_session_id: two.session_id })).sessions;
  expect(items.map((item) => item['id'])).toEqual([one.session_id, two.session_id]);
  expect(items[1]).toEqual({
    current: true,
    id: two.session_id,
    last_active: expect.any(Number),
    message_count: 2,
    model: 'echo',
    preview: 'hi',
    session_key: two.stored_session_id,
    started_at: expect.any(Number),
    status: 'idle',
    title: '',
  });
  expect(items[0]?.['title']).toBe('One');
  const withSecret = (await client.call<{ sessions: Array<{ id: string }> }>('session.active_list', { current_session_id: secret.session_id })).sessions;
  expect(withSecret.map((item) => item.id)).toEqual([one.session_id, secret.session_id, two.session_id]);
  harness.close();
});

test('session.set_hidden by runtime id, stored key or title; pending before the row; 4007 when unknown', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const live = await createReady(client);
  expect(await client.call('session.set_hidden', { session_id: live.session_id })).toEqual({ hidden: true, session_key: live.stored_session_id });
  await turn(client, live.session_id, 'now stored');
  expect(harness.core.store.get(live.stored_session_id)?.hidden).toBe(true);
  await client.call('session.title', { session_id: live.session_id, title: 'Named' });
  expect(await client.call('session.set_hidden', { session_id: 'Named', hidden: false })).toEqual({ hidden: false, session_key: live.stored_session_id });
  expect(await client.call('session.set_hidden', { session_id: live.stored_session_id, hidden: true })).toEqual({ hidden: true, session_key: live.stored_session_id });
  expect(await rpcError(client.call('session.set_hidden', { session_id: 'nobody' }))).toEqual({ code: 4007, message: 'session not found' });
  harness.close();
});

test('session.title reads, sets (creating the row), emits session.info; 4021 empty, 4022 invalid', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const created = await createReady(client, { title: 'Pending' });
  expect(await client.call('session.title', { session_id: created.session_id })).toEqual({ title: 'Pending', session_key: created.stored_session_id });
  expect(harness.core.store.get(created.stored_session_id)).toBeUndefined();
  expect(await client.call('session.title', { session_id: created.session_id, title: '  Renamed ' })).toEqual({ title: 'Renamed', session_key: created.stored_session_id });
  expect(harness.core.store.get(created.stored_session_id)?.title).toBe('Renamed');
  const info = await client.waitForEvent('session.info', created.session_id, (p) => (p['payload'] as { title: string }).title === 'Renamed');
  expect(info['seq']).toBe(2);
  expect(await rpcError(client.call('session.title', { session_id: created.session_id, title: '   ' }))).toEqual({ code: 4021, message: 'title required' });
  expect((await rpcError(client.call('session.title', { session_id: created.session_id, title: 'two\nlines' }))).code).toBe(4022);
  expect((await rpcError(client.call('session.title', { session_id: created.session_id, title: 'x'.repeat(101) }))).code).toBe(4022);
  expect((await rpcError(client.call('session.title', { session_id: 'nope' }))).code).toBe(4001);
  harness.close();
});

test('session.cwd.set: refreshed info and a session.info event; 4016, 4017, 4009 while a turn runs', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const created = await createReady(client);
  const info = await client.call<Record<string, unknown>>('session.cwd.set', { session_id: created.session_id, cwd: '/' });
  expect(info).toMatchObject({ cwd: '/', model: 'echo', lazy: false });
  await client.waitForEvent('session.info', created.session_id, (p) => (p['payload'] as { cwd: string }).cwd === '/');
  expect(await rpcError(client.call('session.cwd.set', { session_id: created.session_id, cwd: '' }))).toEqual({ code: 4016, message: 'cwd required' });
  expect((await rpcError(client.call('session.cwd.set', { session_id: created.session_id, cwd: '/no/such/dir' }))).code).toBe(4017);
  expect((await rpcError(client.call('session.cwd.set', { session_id: created.session_id, cwd: 'relative/dir' }))).code).toBe(4017);
  await client.call('prompt.submit', { session_id: created.session_id, text: '/slow 200 busy' });
  expect(await rpcError(client.call('session.cwd.set', { session_id: created.session_id, cwd: harness.dataDir }))).toEqual({ code: 4009, message: 'session busy' });
  await client.call('session.interrupt', { session_id: created.session_id });
  harness.close();
});

test('session.workspace.move re-homes a stored row and the live session following it; 4007, 4016, 4017', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const created = await createReady(client);
  await turn(client, created.session_id, 'x');
  expect(await client.call('session.workspace.move', { session_key: created.stored_session_id, cwd: '/' })).toEqual({ cwd: '/', branch: null, git_repo_root: null });
  expect(harness.core.store.get(created.stored_session_id)?.cwd).toBe('/');
  expect(harness.core.live.get(created.session_id)?.cwd).toBe('/');
  expect(await rpcError(client.call('session.workspace.move', { session_key: '', cwd: '/' }))).toEqual({ code: 4007, message: 'session_key required' });
  expect(await rpcError(client.call('session.workspace.move', { session_key: 'missing', cwd: '/' }))).toEqual({ code: 4007, message: 'session not found' });
  expect(await rpcError(client.call('session.workspace.move', { session_key: created.stored_session_id, cwd: '' }))).toEqual({ code: 4016, message: 'cwd required' });
  expect((await rpcError(client.call('session.workspace.move', { session_key: created.stored_session_id, cwd: '/nope' }))).code).toBe(4017);
  harness.close();
});
