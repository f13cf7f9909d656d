import { expect, test } from './helpers/test.js';
import { join } from 'node:path';
import { createGatewayCore, GATEWAY_FAULTS, installFaults, startGateway, UnknownFaultError } from '../../gateway/index.js';
import { ORACLE_RULES } from '../../src/checks/checkCatalogue.js';
import { allChecks } from '../../profiles/index.js';
import { RpcClient } from '../../src/client/rpcClient.js';
import { coreHarness, createReady, HERMES_CONTRACT, rpcError, turn } from './helpers/gatewayHarness.js';
import { runCli } from './helpers/cliRunner.js';
import { HERMES_DIALECT } from '../../profiles/hermes/dialect.js';

const HOOKS = join(process.cwd(), 'profiles', 'hermes', 'contracts', 'session-hooks.openrpc.json');

test.describe.configure({ mode: 'parallel' });

/** Rules of the oracle itself: their faults are caught by tests in test/unit, not by matrix cells. */
const ORACLE = new Set<string>(ORACLE_RULES);

test('every public check has a fault meant for it, and every fault names a public check or a rule of the oracle', () => {
  const ids = new Set<string>(allChecks().ids);
  const targeted = new Set(GATEWAY_FAULTS.map((fault) => fault.check));
  expect(GATEWAY_FAULTS.filter((fault) => !ids.has(fault.check) && !ORACLE.has(fault.check)).map((fault) => fault.name)).toEqual([]);
  for (const rule of ORACLE) expect(GATEWAY_FAULTS.filter((fault) => fault.check === rule), rule).toHaveLength(1);
  expect([...ids].filter((id) => !targeted.has(id))).toEqual([]);
  expect(new Set(GATEWAY_FAULTS.map((fault) => fault.name)).size).toBe(GATEWAY_FAULTS.length);
  for (const fault of GATEWAY_FAULTS) expect(fault.breaks.length, fault.name).toBeGreaterThan(10);
});

test('an unknown fault name is refused with the list of valid ones', async () => {
  expect(() => createGatewayCore({ dataDir: '/nonexistent', faults: ['no.such-fault'] })).toThrow(UnknownFaultError);
  await expect(startGateway({ faults: ['envelope.batch-ignored', 'no.such-fault'] })).rejects.toThrow(/unknown fault "no.such-fault"; valid faults: envelope\.parse-error-as-invalid-request, /);
});

test('a fault lives in the gateway it was installed in: a gateway started beside it without faults is unaffected', async () => {
  const faulty = coreHarness({ faults: ['envelope.jsonrpc-missing', 'envelope.batch-ignored'] });
  const clean = coreHarness();
  try {
    const spoiled = await faulty.client().request('session.status', { session_id: 'nope' });
    const proper = await clean.client().request('session.status', { session_id: 'nope' });
    expect('jsonrpc' in spoiled).toBe(false);
    expect(proper['jsonrpc']).toBe('2.0');
    const batchClient = clean.client();
    await batchClient.send('[{"jsonrpc":"2.0","id":1,"method":"gateway.ping"}]');
    expect(batchClient.frames.at(-1)?.['error']).toMatchObject({ code: -32600 });
  } finally {
    faulty.close();
    clean.close();
  }
});

test('installFaults returns the switch-off', async () => {
  const harness = coreHarness();
  try {
    const client = harness.client();
    const off = installFaults(harness.core, ['params.unknown-key-wrong-code']);
    expect(await rpcError(client.call('session.usage', { session_id: 'x', extra: 1 }))).toMatchObject({ code: -32602 });
    off();
    expect(await rpcError(client.call('session.usage', { session_id: 'x', extra: 1 }))).toMatchObject({ code: 4000 });
  } finally {
    harness.close();
  }
});

test('inbound faults change what a method admits', async () => {
  const harness = coreHarness({ faults: ['params.unknown-keys-accepted', 'params.open-model-rejects-extra-key', 'topology.older-backend', 'params.long-string-crash'] });
  try {
    const client = harness.client();
    const session = await createReady(client, { cwd: '/', cwd_explicit: undefined });
    expect(await client.call('session.set_hidden', { session_id: session.session_id, hidden: true, not_declared: 1 })).toMatchObject({ hidden: true });
    expect(await rpcError(client.call('llm.oneshot', { input: 'x', variables: { topic: 'y' } }))).toMatchObject({ code: 4000, message: expect.stringMatching(/^invalid params for llm\.oneshot: variables\.topic: Extra inputs are not permitted/) });
    expect(await client.call('llm.oneshot', { input: 'x', variables: {} })).toMatchObject({ text: expect.any(String) });
    expect(await rpcError(client.call('session.create', { cwd: '/', cwd_explicit: true }))).toMatchObject({ code: 4000, message: expect.stringMatching(/^invalid params for session\.create: cwd_explicit: Extra inputs/) });
    expect(await rpcError(client.call('session.steer', { session_id: session.session_id, text: 'x'.repeat(20_000) }))).toMatchObject({ code: -32603 });
    expect(await client.call('session.steer', { session_id: session.session_id, text: 'short' })).toMatchObject({ status: 'rejected' });
  } finally {
    harness.close();
  }
});

test('replay faults rewrite what session.events.since answers, not what the ring keeps', async () => {
  const harness = coreHarness({ faults: ['replay.since-drops-event'] });
  try {
    const client = harness.client();
    const session = await createReady(client);
    await turn(client, session.session_id, 'hello');
    const live = client.events(session.session_id).map((event) => event['seq']);
    const replay = await client.call<{ events: Array<{ seq: number }>; count: number }>('session.events.since', { session_id: session.session_id, last_seen: 0 });
    expect(replay.events.map((event) => event.seq)).toEqual(live.slice(1));
    expect(replay.count).toBe(live.length - 1);
  } finally {
    harness.close();
  }
});

test('hooks.plugin-error-reaches-client: a throwing cleanup plugin turns the close answer into -32603, and only then', async () => {
  for (const [plugins, expected] of [
    [['throw-in-cleanup'], 'error'],
    [[], 'closed'],
  ] as const) {
    const gateway = await startGateway({ contractPaths: [HERMES_CONTRACT, HOOKS], buildDelayMs: 5, plugins: [...plugins], faults: ['hooks.plugin-error-reaches-client'] });
    const client = await RpcClient.connect({ dialect: HERMES_DIALECT, url: gateway.url, readyTimeoutMs: 2_000, requestTimeoutMs: 5_000 });
    try {
      const created = (await client.request('session.create', {})) as { session_id: string };
      const answer = await client.call('session.close', { session_id: created.session_id });
      if (expected === 'error') expect(answer.response?.['error']).toMatchObject({ code: -32603 });
      else expect(answer.response?.['result']).toEqual({ closed: true });
    } finally {
      await client.close();
      await gateway.close();
    }
  }
});

test('serve --list-faults prints every fault with what it breaks and its check; serve --fault refuses an unknown name', async () => {
  const listed = await runCli(['serve', '--list-faults']);
  expect(listed.code).toBe(0);
  const lines = listed.stdout.trim().split('\n');
  expect(lines).toHaveLength(GATEWAY_FAULTS.length);
  for (const fault of GATEWAY_FAULTS) expect(lines.find((line) => line.startsWith(`${fault.name} `))).toContain(`(caught by ${fault.check})`);
  const refused = await runCli(['serve', '--fault', 'no.such-fault']);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toMatch(/unknown fault "no\.such-fault"; valid faults: .*envelope\.batch-ignored/);
});
