import { expect, test } from './helpers/test.js';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { MemoryClient } from '../../gateway/index.js';
import { coreHarness, createReady, FULL_CONTRACT, FULL_PRE_CWD_EXPLICIT_CONTRACT, HOOKS_EXTENSION, rpcError, sleep, turn } from './helpers/gatewayHarness.js';
import { scratchDir } from './helpers/scratchDir.js';

type Frame = Record<string, unknown>;

test.describe.configure({ mode: 'parallel' });

const FULL = JSON.parse(readFileSync(FULL_CONTRACT, 'utf8')) as { methods: Array<{ name: string }>; 'x-hermes-event-types': Array<{ type: string }> };
const full = (options: Parameters<typeof coreHarness>[0] = {}) => coreHarness({ contractPaths: [FULL_CONTRACT], ...options });

const typesOf = (client: MemoryClient, sessionId: string): unknown[] => client.events(sessionId).map((event) => event['type']);

test('a turn on the full document: message.start without payload, a tool pair, three deltas, message.complete with every field', async () => {
  const harness = full();
  try {
    const client = harness.client();
    const { session_id: sessionId } = await createReady(client);
    const reply = await client.call('prompt.submit', { session_id: sessionId, text: 'hello' });
    // PromptSubmitResult declares no `submission`: every declared field, nothing else.
    expect(reply).toEqual({ status: 'streaming', voice_stopped: null, survivor_user_row_ids: null, survivor_row_id_map: null, turn_isolation: null });
    const complete = await client.waitForEvent('message.complete', sessionId);
    expect(typesOf(client, sessionId)).toEqual(['session.info', 'message.start', 'tool.start', 'tool.complete', 'message.delta', 'message.delta', 'message.delta', 'message.complete']);
    const start = client.events(sessionId).find((event) => event['type'] === 'message.start');
    expect(start && 'payload' in start).toBe(false);
    expect(complete['payload']).toMatchObject({ text: 'echo: hello', status: 'complete', usage: null, partial: null, server_message_id: null });
    expect(Object.keys(complete['payload'] as Frame)).toHaveLength(14);
    const toolStart = client.events(sessionId).find((event) => event['type'] === 'tool.start')?.['payload'];
    expect(toolStart).toMatchObject({ name: 'echo', args: { text: 'hello' }, labels: null });
  } finally {
    harness.close();
  }
});

test('strict mode over turns, queueing, steering, interrupts, resumes, branches and server requests on the full document', async () => {
  const harness = full({ serverRequestTimeoutMs: 40 });
  try {
    const client = harness.client();
    const created = await createReady(client, { title: 'Full', messages: [{ role: 'user', content: 'seed' }] });
    const sessionId = created.session_id;
    await turn(client, sessionId, 'one');
    await turn(client, sessionId, '/fail on purpose');
    await client.call('prompt.submit', { session_id: sessionId, text: '/slow 60 long' });
    expect(await client.call('prompt.submit', { session_id: sessionId, text: 'next', queued: true })).toMatchObject({ status: 'queued' });
    expect(await client.call('session.steer', { session_id: sessionId, text: 'steer' })).toMatchObject({ status: 'queued', text: 'steer' });
    expect(await client.call('session.interrupt', { session_id: sessionId })).toMatchObject({ status: 'interrupted', turn_isolation: null });
    await turn(client, sessionId, '/request approval');
    for (const [method, params] of [
      ['session.history', {}],
      ['session.usage', {}],
      ['session.status', {}],
      ['session.context_breakdown', {}],
      ['session.compress', {}],
      ['session.title', { title: 'Renamed' }],
      ['session.undo', {}],
      ['terminal.resize', { cols: 100 }],
      ['session.save', {}],
    ] as const) {
      await client.call(method, { session_id: sessionId, ...params });
    }
    for (const method of ['session.events.stats', 'session.active_list', 'session.list', 'session.most_recent']) await client.call(method, {});
    const branched = await client.call<{ session_id: string; stored_session_id: string }>('session.branch', { session_id: sessionId });
    await client.call('session.branch_whole', { session_id: sessionId });
    const key = (await client.call<{ session_key: string }>('session.activate', { session_id: sessionId })).session_key;
    expect(await client.call('session.close', { session_id: sessionId })).toEqual({ closed: true });
    for (const options of [{}, { lazy: true }, { defer_history: true }, { eager_build: true }, { omit_messages: true }]) {
      const resumed = await client.call<{ session_id: string }>('session.resume', { session_id: key, ...options });
      await sleep(15);
      await client.call('session.close', { session_id: resumed.session_id });
    }
    await client.call('session.events.since', { session_id: branched.session_id, last_seen: 0 });
    await client.call('session.delete', { session_id: key });
  } finally {
    harness.close();
  }
});

test('/emit sends one schema-valid event of every declared type, each in a turn of its own', async () => {
  const harness = full();
  try {
    const client = harness.client();
    const { session_id: sessionId } = await createReady(client);
    const types = FULL['x-hermes-event-types'].map((entry) => entry.type);
    expect(types).toHaveLength(73);
    for (const type of types) {
      await client.call('prompt.submit', { session_id: sessionId, text: `/emit ${type}` });
      // The turn's own completion (an emitted message.complete carries a generated payload).
      await client.waitForEvent('message.complete', sessionId, (params) => (params['payload'] as Frame | undefined)?.['text'] === `emitted ${type}`);
    }
    const emitted = new Set(typesOf(client, sessionId));
    expect(types.filter((type) => !emitted.has(type))).toEqual([]);
    await client.call('prompt.submit', { session_id: sessionId, text: '/emit no.such' });
    const refused = (params: Frame) => (params['payload'] as Frame | undefined)?.['message'] === 'no event type "no.such" is declared';
    await client.waitForEvent('error', sessionId, refused);
  } finally {
    harness.close();
  }
});

test('unknown members answer 4000 in Pydantic order: declared fields (recursing) first, then top-level extras', async () => {
  const harness = full();
  try {
    const client = harness.client();
    const { session_id: sessionId } = await createReady(client);
    const suffix = ' \u2014 the client and the Hermes backend are out of sync (different versions); run `hermes update` and restart both';
    expect(await rpcError(client.call('session.steer', { session_id: sessionId, text: 'x', zeta: 1 }))).toEqual({ code: 4000, message: `invalid params for session.steer: zeta: Extra inputs are not permitted${suffix}` });
    const nested = client.call('session.create', { zeta: 1, messages: [{ role: 'user', content: 'x' }] });
    // SeedMessage is open, so the nested member passes; the top-level one does not.
    expect(await rpcError(nested)).toMatchObject({ code: 4000, message: expect.stringMatching(/^invalid params for session\.create: zeta: Extra inputs/) });
    expect(await rpcError(client.call('ping', { extra: true }))).toMatchObject({ code: 4000, message: expect.stringMatching(/^invalid params for ping: extra: /) });
    expect(await client.call('ping', null)).toEqual({ pong: true });
  } finally {
    harness.close();
  }
});

test('missing or mistyped fields never succeed: domain codes where a handler documents one, else -32602', async () => {
  const harness = full();
  try {
    const client = harness.client();
    expect(await rpcError(client.call('session.resume', {}))).toEqual({ code: 4006, message: 'session_id required' });
    expect(await rpcError(client.call('session.steer', { session_id: 'x' }))).toMatchObject({ code: -32602, message: 'invalid params for session.steer: text: Field required' });
    expect(await rpcError(client.call('agents.list', { profile: 3 }))).toMatchObject({ code: -32602 });
  } finally {
    harness.close();
  }
});

test('schema-responded methods: a session_id must name a live session, and session ids in results name real ones', async () => {
  const harness = full();
  try {
    const client = harness.client();
    expect(await rpcError(client.call('subagent.list', { session_id: 'nope' }))).toEqual({ code: 4001, message: 'session not found' });
    const { session_id: sessionId } = await createReady(client);
    await client.call('subagent.list', { session_id: sessionId });
    const processes = await client.call<{ processes: Array<{ session_id: string }> }>('agents.list', {});
    for (const entry of processes.processes) expect(entry.session_id).toBe(sessionId);
  } finally {
    harness.close();
  }
});

test('every method of the full document answers: schema-valid results for valid params, never an internal error', async () => {
  const harness = full();
  try {
    const client = harness.client();
    await createReady(client);
    const errors: string[] = [];
    for (const { name } of FULL.methods) {
      const frame = await client.request(name, {});
      const code = (frame['error'] as { code: number } | undefined)?.code;
      const message = (frame['error'] as { message?: string } | undefined)?.message ?? '';
      if (code === -32603 || (code === 4000 && message.includes('Extra inputs'))) errors.push(`${name}: ${JSON.stringify(frame['error'])}`);
    }
    expect(errors).toEqual([]);
  } finally {
    harness.close();
  }
});

test('the full document combines with its older twin and the hooks extension; the older one alone refuses cwd_explicit', async () => {
  const combined = coreHarness({ contractPaths: [FULL_CONTRACT, HOOKS_EXTENSION] });
  const older = coreHarness({ contractPaths: [FULL_PRE_CWD_EXPLICIT_CONTRACT] });
  try {
    const client = combined.client();
    const { session_id: sessionId } = await createReady(client, { cwd: '/', cwd_explicit: true });
    expect(await client.call('hooks.subscribe', {})).toMatchObject({ subscribed: expect.any(Array) });
    expect(await client.call('session.reset', { session_id: sessionId })).toEqual({ reset: true });
    const stale = older.client();
    expect(await rpcError(stale.call('session.create', { cwd: '/', cwd_explicit: true }))).toMatchObject({ code: 4000, message: expect.stringMatching(/^invalid params for session\.create: cwd_explicit: /) });
    expect(await rpcError(stale.call('session.branch_whole', { session_id: 'x' }))).toMatchObject({ code: -32601 });
  } finally {
    combined.close();
    older.close();
  }
});

test('SHARED_SESSION_WIRE input observations and submissions reach the wire where a document declares them', async () => {
  const document = JSON.parse(readFileSync(FULL_CONTRACT, 'utf8')) as Record<string, any>; // oxlint-disable-line typescript/no-explicit-any
  const inputs = { type: 'array', items: { type: 'object', additionalProperties: false, properties: { id: { type: 'string' }, ref: { type: 'string' } }, required: ['id'] } };
  const start = document['x-hermes-event-types'].find((entry: Frame) => entry['type'] === 'message.start');
  start.payload = {
    type: 'object',
    additionalProperties: false,
    properties: { input: { anyOf: [{ type: 'object', additionalProperties: true }, { type: 'null' }] }, inputs, inputs_complete: { type: 'boolean' } },
    required: ['input', 'inputs', 'inputs_complete'],
  };
  const disposition = { enum: ['starting', 'queued', 'merged', 'absorbed', 'steered', 'redirected', 'unresolved'] };
  document.components.schemas.PromptSubmitResult.properties.submission = {
    type: 'object',
    additionalProperties: false,
    properties: { input_id: { type: 'string' }, ref: { type: 'string' }, disposition },
    required: ['input_id', 'disposition'],
  };
  document.methods.find((method: Frame) => method['name'] === 'prompt.submit').params.push({ name: 'submission_ref', required: false, schema: { type: 'string' } });
  const path = join(scratchDir('gateway-shared-wire'), 'shared.openrpc.json');
  writeFileSync(path, JSON.stringify(document));
  const harness = coreHarness({ contractPaths: [path] });
  try {
    const client = harness.client();
    const { session_id: sessionId } = await createReady(client);
    // A slow turn, so that the second prompt finds it running (an instant turn ends within the tick it starts in).
    expect(await client.call('prompt.submit', { session_id: sessionId, text: '/slow 500 look', submission_ref: 'R1' })).toMatchObject({ submission: { input_id: 'I1', ref: 'R1', disposition: 'starting' } });
    const started = await client.waitForEvent('message.start', sessionId);
    expect(started['payload']).toEqual({ input: { role: 'user', text: '/slow 500 look' }, inputs: [{ id: 'I1' }], inputs_complete: true });
    expect(await client.call('prompt.submit', { session_id: sessionId, text: 'later', submission_ref: 'x'.repeat(65) })).toMatchObject({ status: 'queued', submission: { input_id: 'I2', disposition: 'queued' } });
  } finally {
    harness.close();
    rmSync(dirname(path), { recursive: true, force: true });
  }
});
