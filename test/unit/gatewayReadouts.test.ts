import { readFileSync } from 'node:fs';
import { expect, test } from './helpers/test.js';
import { type Created, coreHarness, createReady, rpcError, turn } from './helpers/gatewayHarness.js';

test('session.history: count and the projected rows with row ids', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const created = await createReady(client);
  expect(await client.call('session.history', { session_id: created.session_id })).toEqual({ count: 0, messages: [] });
  await turn(client, created.session_id, 'q');
  const result = await client.call<{ count: number; messages: Array<Record<string, unknown>> }>('session.history', { session_id: created.session_id });
  expect(result.count).toBe(2);
  expect(result.messages[0]).toEqual({ role: 'user', text: 'q', timestamp: expect.any(Number), row_id: expect.any(Number) });
  harness.close();
});

test('session.usage counts tokens of the committed turns deterministically', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const created = await createReady(client);
  await turn(client, created.session_id, 'abcdefgh');
  expect(await client.call('session.usage', { session_id: created.session_id })).toEqual({
    model: 'echo',
    input: 2,
    output: 4,
    reasoning: 0,
    prompt: 2,
    completion: 4,
    total: 6,
    calls: 1,
    context_used: 6,
    context_max: 128000,
    context_percent: 0,
  });
  harness.close();
});

test('session.context_breakdown: empty categories before the agent builds, then the messages category', async () => {
  const harness = coreHarness({ buildDelayMs: 30 });
  const client = harness.client();
  const created = await client.call<Created>('session.create', {});
  expect(await client.call('session.context_breakdown', { session_id: created.session_id })).toMatchObject({ categories: [], context_used: 0, model: 'echo' });
  await client.waitForEvent('session.info', created.session_id);
  await turn(client, created.session_id, 'abcd');
  const breakdown = await client.call<{ categories: Array<{ id: string; tokens: number }>; context_used: number }>('session.context_breakdown', { session_id: created.session_id });
  expect(breakdown.categories).toEqual([{ color: expect.any(String), id: 'messages', label: 'Messages', tokens: 4 }]);
  expect(breakdown.context_used).toBe(4);
  harness.close();
});

test('session.status renders a /status text', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const created = await createReady(client, { title: 'Shown' });
  const { output } = await client.call<{ output: string }>('session.status', { session_id: created.session_id });
  expect(output).toContain(`Session: ${created.stored_session_id} (runtime ${created.session_id})`);
  expect(output).toContain('Title: Shown');
  expect(output).toContain('Status: idle');
  harness.close();
});

test('session.compress is a no-op summary of an idle session; 4009 while a turn runs', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const created = await createReady(client);
  await turn(client, created.session_id, 'something');
  const result = await client.call<Record<string, unknown>>('session.compress', { session_id: created.session_id, focus_topic: 'tests' });
  expect(result).toMatchObject({ status: 'compressed', removed: 0, before_messages: 2, after_messages: 2, compressed: false });
  expect(result['summary']).toMatchObject({ noop: true, note: 'focus: tests' });
  expect(harness.core.live.get(created.session_id)?.interactionCount).toBe(1);
  await client.call('prompt.submit', { session_id: created.session_id, text: '/slow 200 busy' });
  expect((await rpcError(client.call('session.compress', { session_id: created.session_id }))).code).toBe(4009);
  await client.call('session.interrupt', { session_id: created.session_id });
  harness.close();
});

test('session.save writes the transcript under the gateway data directory', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const created = await createReady(client);
  await turn(client, created.session_id, 'save me');
  const { file } = await client.call<{ file: string }>('session.save', { session_id: created.session_id });
  expect(file.startsWith(`${harness.dataDir}/sessions/saved/${created.stored_session_id}_`)).toBe(true);
  const saved = JSON.parse(readFileSync(file, 'utf8')) as { messages: Array<{ text: string }> };
  expect(saved.messages.map((m) => m.text)).toEqual(['save me', 'echo: save me']);
  harness.close();
});

test('terminal.resize records the width; a null cols answers the current one', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const created = await createReady(client, { cols: 100 });
  expect(await client.call('terminal.resize', { session_id: created.session_id })).toEqual({ cols: 100 });
  expect(await client.call('terminal.resize', { session_id: created.session_id, cols: 132 })).toEqual({ cols: 132 });
  expect(await client.call('terminal.resize', { session_id: created.session_id, cols: null })).toEqual({ cols: 132 });
  harness.close();
});

test('llm.oneshot is deterministic, lends a live session model, and validates its inputs (4030, 4031, 4001)', async () => {
  const harness = coreHarness();
  const client = harness.client();
  expect(await client.call('llm.oneshot', { instructions: 'Title this', input: 'a chat' })).toEqual({ text: 'oneshot(echo): Title this\na chat' });
  expect(await client.call('llm.oneshot', { template: 'Hi {name}, {n}', variables: { name: 'Ada', n: 3 } })).toEqual({ text: 'oneshot(echo): Hi Ada, 3' });
  expect(await client.call('llm.oneshot', { input: 'abcdefghijklmnop', max_tokens: 2 })).toEqual({ text: 'oneshot(' });
  const created = await createReady(client, { model: 'echo-large' });
  expect(await client.call('llm.oneshot', { input: 'x', session_id: created.session_id })).toEqual({ text: 'oneshot(echo-large): x' });
  expect((await rpcError(client.call('llm.oneshot', {}))).code).toBe(4030);
  expect((await rpcError(client.call('llm.oneshot', { input: 'x', temperature: 3 }))).code).toBe(4031);
  expect((await rpcError(client.call('llm.oneshot', { input: 'x', max_tokens: 0 }))).code).toBe(4031);
  expect((await rpcError(client.call('llm.oneshot', { input: 'x', session_id: 'nope' }))).code).toBe(4001);
  harness.close();
});
