import { expect, test } from './helpers/test.js';
import { join } from 'node:path';
import type { GatewayOptions, MemoryClient } from '../../gateway/index.js';
import { type CoreHarness, coreHarness, createReady, HERMES_CONTRACT, rpcError, sleep, turn } from './helpers/gatewayHarness.js';

const HOOKS_EXTENSION = join(process.cwd(), 'profiles', 'hermes', 'contracts', 'session-hooks.openrpc.json');
type Hook = Record<string, unknown> & { hook: string; session_id: string };

const hookHarness = (options: Partial<GatewayOptions> = {}): CoreHarness => coreHarness({ contractPaths: [HERMES_CONTRACT, HOOKS_EXTENSION], ...options });

async function observer(harness: CoreHarness, hooks?: string[]): Promise<MemoryClient> {
  const client = harness.client();
  await client.call('hooks.subscribe', hooks ? { hooks } : {});
  return client;
}

const hooksOf = (client: MemoryClient, sessionId?: string): Hook[] =>
  client
    .events(sessionId)
    .filter((params) => params['type'] === 'session.hook')
    .map((params) => params['payload'] as Hook);

const namesOf = (client: MemoryClient, sessionId: string): string[] => hooksOf(client, sessionId).map((payload) => payload.hook);

async function waitHook(client: MemoryClient, sessionId: string, hook: string): Promise<Hook> {
  const params = await client.waitForEvent('session.hook', sessionId, (candidate) => (candidate['payload'] as Hook | undefined)?.hook === hook, 3_000);
  return params['payload'] as Hook;
}

test('session.create fires pre_init before its reply and post_init once, just before session.info, under one session id', async () => {
  const harness = hookHarness();
  const client = await observer(harness);
  const created = await createReady(client, { model: 'echo', reasoning_effort: 'low' });
  const id = created.session_id;
  const kinds = client.frames.map((frame) => {
    const params = frame['params'] as Record<string, unknown> | undefined;
    if (params?.['type'] === 'session.hook') return `hook:${(params['payload'] as Hook).hook}`;
    if (params?.['type'] === 'session.info') return 'session.info';
    return 'result' in frame && (frame['result'] as Record<string, unknown>)['session_id'] === id ? 'create reply' : undefined;
  });
  expect(kinds.filter(Boolean)).toEqual(['hook:session_pre_init', 'create reply', 'hook:session_post_init', 'session.info']);
  const [pre, post] = hooksOf(client, id);
  expect(pre).toMatchObject({ session_id: id, backend_name: 'reference', model_id: 'echo', model_options: { reasoning_effort: 'low' }, context_type: 'SimpleContext' });
  expect(pre?.['timestamp']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  expect(post).toMatchObject({ session_id: id, model_id: 'echo', context: { type: 'SimpleContext', turns: 0, last_role: null } });
  harness.close();
});

test('interaction_count: +1 per committed turn; a failed turn, reads, undo and compress add 0', async () => {
  const harness = hookHarness();
  const watch = await observer(harness);
  const owner = harness.client();
  const { session_id: id } = await createReady(owner);
  await turn(owner, id, 'a');
  await turn(owner, id, '/fail nope');
  await owner.call('session.history', { session_id: id });
  await owner.call('session.usage', { session_id: id });
  expect(await owner.call('session.undo', { session_id: id })).toEqual({ removed: 2 });
  await turn(owner, id, 'b');
  await owner.call('session.compress', { session_id: id });
  expect(await owner.call('session.close', { session_id: id })).toEqual({ closed: true });
  expect(await waitHook(watch, id, 'session_cleanup')).toMatchObject({ interaction_count: 2, exception: null, context: { turns: 1, last_role: 'assistant' } });
  harness.close();
});

test('branches and resumed sessions start at 0 and fire no init hooks; each still ends with exactly one cleanup', async () => {
  const harness = hookHarness();
  const watch = await observer(harness);
  const owner = harness.client();
  const parent = await createReady(owner);
  await turn(owner, parent.session_id, 'one');
  await turn(owner, parent.session_id, 'two');
  const child = await owner.call<{ session_id: string }>('session.branch', { session_id: parent.session_id });
  await turn(owner, child.session_id, 'three');
  await owner.call('session.close', { session_id: child.session_id });
  expect(namesOf(watch, child.session_id)).toEqual(['session_cleanup']);
  expect(hooksOf(watch, child.session_id)[0]).toMatchObject({ interaction_count: 1, context: { turns: 3, last_role: 'assistant' } });
  await owner.call('session.close', { session_id: parent.session_id });
  const resumed = await owner.call<{ session_id: string }>('session.resume', { session_id: parent.stored_session_id, eager_build: true });
  await owner.call('session.close', { session_id: resumed.session_id });
  expect(namesOf(watch, resumed.session_id)).toEqual(['session_cleanup']);
  expect(hooksOf(watch, resumed.session_id)[0]).toMatchObject({ interaction_count: 0, context: { turns: 2 } });
  harness.close();
});

test('session.reset fires session_reset with the context as it was, then empties it and restarts the count', async () => {
  const harness = hookHarness();
  const watch = await observer(harness);
  const owner = harness.client();
  const { session_id: id } = await createReady(owner);
  expect(await owner.call('session.reset', { session_id: id })).toEqual({ reset: true });
  await turn(owner, id, 'one');
  await turn(owner, id, 'two');
  expect(await owner.call('session.reset', { session_id: id })).toEqual({ reset: true });
  const resets = hooksOf(watch, id).filter((payload) => payload.hook === 'session_reset');
  expect(resets.map((payload) => payload['previous_context'])).toEqual([
    { type: 'SimpleContext', turns: 0, last_role: null },
    { type: 'SimpleContext', turns: 2, last_role: 'assistant' },
  ]);
  expect(await owner.call('session.history', { session_id: id })).toEqual({ count: 0, messages: [] });
  await turn(owner, id, 'three');
  await owner.call('session.close', { session_id: id });
  expect(await waitHook(watch, id, 'session_cleanup')).toMatchObject({ interaction_count: 1, context: { turns: 1, last_role: 'assistant' } });
  expect(await rpcError(owner.call('session.reset', { session_id: id }))).toEqual({ code: 4001, message: 'session not found' });
  const busy = await createReady(owner);
  await owner.call('prompt.submit', { session_id: busy.session_id, text: '/slow 200 x' });
  expect(await rpcError(owner.call('session.reset', { session_id: busy.session_id }))).toEqual({ code: 4009, message: 'session busy' });
  harness.close();
});

test('every end fires session_cleanup exactly once, with the exception of its cause; a second close is a silent no-op', async () => {
  const harness = hookHarness({ orphanGraceMs: 20 });
  const watch = await observer(harness);
  const owner = harness.client();
  const closed = await createReady(owner);
  expect(await owner.call('session.close', { session_id: closed.session_id })).toEqual({ closed: true });
  expect(await owner.call('session.close', { session_id: closed.session_id })).toEqual({ closed: false });

  const dropper = harness.client();
  const dropped = await createReady(dropper, { close_on_disconnect: true });
  await turn(dropper, dropped.session_id, 'x');
  dropper.close(1006, 'gone');
  expect(await watch.call('session.close', { session_id: dropped.session_id })).toEqual({ closed: false });

  const failing = await owner.call<{ session_id: string }>('session.create', { model: 'fail-build-x' });
  const error = await owner.waitForEvent('error', failing.session_id);
  const leaver = harness.client();
  const reaped = await createReady(leaver);
  leaver.close(1001, 'away');
  await waitHook(watch, reaped.session_id, 'session_cleanup');
  await sleep(20);

  const cleanups = (id: string) => hooksOf(watch, id).filter((payload) => payload.hook === 'session_cleanup');
  expect(cleanups(closed.session_id).map((payload) => payload['exception'])).toEqual([null]);
  expect(cleanups(dropped.session_id).map((payload) => [payload['exception'], payload['interaction_count']])).toEqual([[{ type: 'ConnectionClosed', message: 'connection closed with code 1006: gone' }, 1]]);
  expect(cleanups(failing.session_id).map((payload) => payload['exception'])).toEqual([{ type: 'AgentBuildError', message: (error['payload'] as Record<string, unknown>)['message'] }]);
  expect(namesOf(watch, failing.session_id)).toEqual(['session_pre_init', 'session_cleanup']);
  expect(cleanups(reaped.session_id).map((payload) => (payload['exception'] as Record<string, unknown>)['type'])).toEqual(['OrphanReaped']);
  expect(await rpcError(owner.call('prompt.submit', { session_id: failing.session_id, text: 'x' }))).toMatchObject({ code: 5032 });
  harness.close();
});

test('observers see every session of every connection, the hooks they asked for, after the owner is gone; owners see none unasked', async () => {
  const harness = hookHarness();
  const cleanupsOnly = await observer(harness, ['session_cleanup']);
  expect(await cleanupsOnly.call('hooks.subscribe', { hooks: ['session_cleanup', 'session_reset'] })).toEqual({ subscribed: ['session_reset', 'session_cleanup'] });
  const everything = await observer(harness);
  const owner = harness.client();
  const created = await createReady(owner, { close_on_disconnect: true });
  await turn(owner, created.session_id, 'one');
  await owner.call('session.reset', { session_id: created.session_id });
  await turn(owner, created.session_id, 'two');
  owner.close(1001, 'bye');
  await waitHook(everything, created.session_id, 'session_cleanup');
  expect(namesOf(everything, created.session_id)).toEqual(['session_pre_init', 'session_post_init', 'session_reset', 'session_cleanup']);
  expect(namesOf(cleanupsOnly, created.session_id)).toEqual(['session_reset', 'session_cleanup']);
  expect(hooksOf(owner)).toEqual([]);
  const ownerSeqs = owner.events(created.session_id).map((params) => params['seq']);
  expect(ownerSeqs).toEqual(ownerSeqs.map((_, i) => i + 1));
  expect(everything.events(created.session_id).every((params) => !('seq' in params))).toBe(true);
  const replay = await everything.call<{ events: Array<Record<string, unknown>>; latest_seq: number }>('session.events.since', { session_id: created.session_id, last_seen: 0 });
  expect(replay.events.map((event) => event['type'])).not.toContain('session.hook');
  expect(replay.latest_seq).toBe(ownerSeqs.length);
  harness.close();
});

test('without the extension document the hook methods answer -32601 and no session.hook is sent, while plugins still run', async () => {
  const harness = coreHarness({ plugins: ['record'] });
  const client = harness.client();
  expect(await rpcError(client.call('hooks.subscribe', {}))).toMatchObject({ code: -32601 });
  const created = await createReady(client);
  expect(await rpcError(client.call('session.reset', { session_id: created.session_id }))).toMatchObject({ code: -32601 });
  await client.call('session.close', { session_id: created.session_id });
  expect(hooksOf(client)).toEqual([]);
  expect(harness.core.hooks.recorded().map((payload) => payload.hook)).toEqual(['session_pre_init', 'session_post_init', 'session_cleanup']);
  harness.close();
});

test('a session whose connection drops while pre_init runs ends at once; one closed while post_init runs gets no post_init after its cleanup', async () => {
  const slowInit = (hook: 'session_pre_init' | 'session_post_init') => ({ name: `slow-${hook}`, install: (hooks: { on: (h: typeof hook, f: () => Promise<void>) => void }) => hooks.on(hook, () => sleep(60)) });
  const harness = hookHarness({ plugins: [slowInit('session_pre_init')] });
  const watch = await observer(harness);
  const owner = harness.client();
  const sent = owner.send({ jsonrpc: '2.0', id: 'c1', method: 'session.create', params: { close_on_disconnect: true } });
  owner.close(1001, 'left early');
  await sent;
  const [pre] = hooksOf(watch);
  const cleanup = await waitHook(watch, pre?.session_id ?? '', 'session_cleanup');
  expect(cleanup['exception']).toEqual({ type: 'ConnectionClosed', message: 'connection closed with code 1001: left early' });
  expect(harness.core.live.all()).toEqual([]);
  harness.close();

  const second = hookHarness({ plugins: [slowInit('session_post_init')] });
  const watch2 = await observer(second);
  const owner2 = second.client();
  const created = await owner2.call<{ session_id: string }>('session.create', {});
  await sleep(25);
  expect(await owner2.call('session.close', { session_id: created.session_id })).toEqual({ closed: true });
  await sleep(80);
  expect(namesOf(watch2, created.session_id)).toEqual(['session_pre_init', 'session_cleanup']);
  expect(owner2.events(created.session_id).map((params) => params['type'])).not.toContain('session.info');
  second.close();
});
