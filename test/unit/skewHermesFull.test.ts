import { expect, test } from './helpers/test.js';
import { startGateway, type RunningGateway } from '../../gateway/index.js';
import { HERMES_CODES } from './helpers/profiles.js';
import { RpcClient } from '../../src/client/index.js';
import { loadContractSync, SchemaValidators, type Contract } from '../../src/contracts/index.js';
import { skewProbeVerdict } from '../../profiles/hermes/scenarios/skewProbe.js';
import { analyseSkew } from '../../src/skew/index.js';
import { isJsonObject, outcomeOf } from '../../core/index.js';
import { FULL_CONTRACT, FULL_PRE_CWD_EXPLICIT_CONTRACT } from './helpers/gatewayHarness.js';
import { HERMES_DIALECT } from '../../profiles/hermes/dialect.js';

// The two full Hermes documents are two real upstream versions: the seed's sessions.py (at the cwd_explicit fix) and
// the stored one (before it, but with a newer InflightTurn). profiles/hermes/contracts/README.md lists these findings by hand.
const TOKEN = 'skew-full-token';
let current: Contract;
let previous: Contract;

test.beforeAll(() => {
  current = loadContractSync(FULL_CONTRACT);
  previous = loadContractSync(FULL_PRE_CWD_EXPLICIT_CONTRACT);
});

const summary = (contractA: Contract, contractB: Contract) =>
  analyseSkew(contractA, contractB)
    .findings.map((f) => `${f.severity} ${f.method} ${f.path} ${f.kind}`)
    .sort();

test('a desktop on the current document against a backend on the older one: seven breaking findings', () => {
  expect(summary(current, previous)).toEqual([
    'breaking session.activate result.inflight.display_metadata result-required-missing',
    'breaking session.activate result.inflight.user_originated result-unknown-to-client',
    'breaking session.branch_stored  method-missing',
    'breaking session.branch_whole  method-missing',
    'breaking session.create cwd_explicit param-unknown-to-server',
    'breaking session.resume result.inflight.display_metadata result-required-missing',
    'breaking session.resume result.inflight.user_originated result-unknown-to-client',
  ]);
  const create = analyseSkew(current, previous, { serverCodes: HERMES_CODES }).findings.find((f) => f.method === 'session.create');
  expect(create?.message).toContain('4000 "invalid params for session.create: cwd_explicit: Extra inputs are not permitted"');
});

test('an older desktop against the current backend: the InflightTurn change breaks results both ways, the rest is info', () => {
  expect(summary(previous, current)).toEqual([
    'breaking session.activate result.inflight.display_metadata result-unknown-to-client',
    'breaking session.activate result.inflight.user_originated result-required-missing',
    'breaking session.resume result.inflight.display_metadata result-unknown-to-client',
    'breaking session.resume result.inflight.user_originated result-required-missing',
    'info session.branch_stored  method-added',
    'info session.branch_whole  method-added',
    'info session.create cwd_explicit param-added-optional',
  ]);
});

test.describe('predicted = observed with the reference gateway started on each document', () => {
  let older: RunningGateway;
  let newer: RunningGateway;
  test.beforeAll(async () => {
    [older, newer] = await Promise.all([startGateway({ token: TOKEN, contractPaths: [FULL_PRE_CWD_EXPLICIT_CONTRACT] }), startGateway({ token: TOKEN, contractPaths: [FULL_CONTRACT] })]);
  });
  test.afterAll(async () => {
    await Promise.all([older?.close(), newer?.close()]);
  });

  const connectTo = (gateway: RunningGateway) => () => RpcClient.connect({ dialect: HERMES_DIALECT, url: gateway.url, token: TOKEN });

  test('the params break: cwd_explicit is refused by the older backend only, each side as predicted', async () => {
    const againstOlder = await skewProbeVerdict(connectTo(older), { client: current, target: previous, profile: HERMES_CODES });
    expect(againstOlder.status).toBe('pass');
    expect(againstOlder.rows.map((row) => [row.method, row.path, row.predicted, row.observed])).toEqual([
      ['session.create', 'cwd_explicit', 'rejected', 'rejected'],
      ['session.create', '', 'accepted', 'accepted'],
    ]);
    const againstNewer = await skewProbeVerdict(connectTo(newer), { client: previous, target: current, profile: HERMES_CODES });
    expect(againstNewer.status).toBe('pass');
  });

  test('the method breaks: session.branch_stored and branch_whole are unknown to the older backend', async () => {
    const client = await RpcClient.connect({ dialect: HERMES_DIALECT, url: older.url, token: TOKEN });
    for (const method of ['session.branch_stored', 'session.branch_whole']) {
      const exchange = await client.call(method, {});
      expect(outcomeOf(exchange)).toMatchObject({ kind: 'error', code: -32601 });
    }
    await client.close();
  });

  test('the result breaks: an in-flight turn seen through session.activate fails the other version\'s InflightTurn', async () => {
    for (const [gateway, served, reader] of [
      [older, previous, current],
      [newer, current, previous],
    ] as const) {
      const client = await RpcClient.connect({ dialect: HERMES_DIALECT, url: gateway.url, token: TOKEN });
      const created = await client.request<{ session_id: string }>('session.create', {});
      await client.waitForEvent({ type: 'session.info', sessionId: created.session_id }, 5_000);
      await client.request('prompt.submit', { session_id: created.session_id, text: '/slow 1500' });
      await client.waitForEvent({ type: 'message.delta', sessionId: created.session_id }, 5_000);
      const activated = await client.request('session.activate', { session_id: created.session_id });
      const inflight = isJsonObject(activated) ? activated['inflight'] : undefined;
      expect(isJsonObject(inflight)).toBe(true);
      const resultSchema = (contract: Contract) => contract.method('session.activate')!.resultSchema!;
      expect(new SchemaValidators(served).check(resultSchema(served), activated)).toEqual([]);
      const problems = new SchemaValidators(reader).check(resultSchema(reader), activated);
      // Each version's InflightTurn is closed and requires its own new key: both directions fail the same two rules
      // (inflight is nullable, so ajv also reports the anyOf that neither branch satisfied).
      const named = problems.filter((p) => p.keyword === 'additionalProperties' || p.keyword === 'required').map((p) => `${p.instancePath} ${p.keyword}`);
      expect(named.sort()).toEqual(['/inflight additionalProperties', '/inflight required']);
      const keys = problems.map((p) => String(p.params['additionalProperty'] ?? p.params['missingProperty'] ?? '')).filter(Boolean).sort();
      expect(keys).toEqual(['display_metadata', 'user_originated']);
      await client.request('session.close', { session_id: created.session_id });
      await client.close();
    }
  });
});
