import { expect, test } from './helpers/test.js';
import { fileURLToPath } from 'node:url';
import { startGateway } from '../../gateway/index.js';
import { HERMES_CODES, JSON_RPC_CODES } from './helpers/profiles.js';
import { RpcClient } from '../../src/client/rpcClient.js';
import { loadContractSync } from '../../src/contracts/index.js';
import { compareSkew, observe, pathOf, renderSkewTable, skewProbeVerdict, type SkewObservation } from '../../profiles/hermes/scenarios/skewProbe.js';
import { analyseSkew } from '../../src/skew/index.js';
import { HERMES_DIALECT } from '../../profiles/hermes/dialect.js';

const path = (name: string) => fileURLToPath(new URL(`../../profiles/hermes/contracts/${name}`, import.meta.url));
const CURRENT_PATH = path('session-lifecycle.openrpc.json');
const PRE_CWD_PATH = path('session-lifecycle.pre-cwd-explicit.openrpc.json');
const CURRENT = loadContractSync(CURRENT_PATH);
const PRE_CWD = loadContractSync(PRE_CWD_PATH);

const rejection = (field: string) => ({ kind: 'error', code: 4000, message: `invalid params for session.create: ${field}: Extra inputs are not permitted` }) as const;

test('observe classifies outcomes under the profile: contract rejection (naming the path or not), acceptance, anything else', () => {
  expect(observe('session.create', 'cwd_explicit', 'rejected', rejection('cwd_explicit'), HERMES_CODES)).toMatchObject({ observed: 'rejected', namesPath: true, namedPath: 'cwd_explicit' });
  expect(observe('session.create', 'cwd_explicit', 'rejected', rejection('title_x'), HERMES_CODES)).toMatchObject({ observed: 'rejected', namesPath: false, namedPath: 'title_x' });
  expect(observe('session.create', '', 'accepted', { kind: 'result', result: {} }, HERMES_CODES).observed).toBe('accepted');
  expect(observe('session.create', '', 'accepted', { kind: 'error', code: 4007, message: 'session not found' }, HERMES_CODES).observed).toBe('accepted');
  expect(observe('session.create', '', 'accepted', { kind: 'error', code: -32603, message: 'internal error' }, HERMES_CODES).observed).toBe('other');
  expect(observe('m', 'extra', 'rejected', { kind: 'error', code: -32602, message: 'unexpected param "extra"' }, JSON_RPC_CODES)).toMatchObject({ observed: 'rejected', namesPath: true });
  expect(observe('m', 'extra', 'rejected', { kind: 'failure', failure: { code: 'REQUEST_TIMEOUT', message: 'timeout' } }, JSON_RPC_CODES).observed).toBe('other');
  expect(pathOf('messages.0.foo')).toEqual(['messages', 0, 'foo']);
});

test('compareSkew: agreement, predicted break not observed, observed break not predicted, break naming another key', () => {
  const row = (o: Partial<SkewObservation>): SkewObservation => ({ method: 'session.create', path: 'cwd_explicit', predicted: 'rejected', observed: 'rejected', namesPath: true, outcome: 'error 4000', ...o });
  const { rows, disagreements } = compareSkew([
    row({}),
    row({ observed: 'accepted', namesPath: false, outcome: 'a success' }),
    row({ path: '', predicted: 'accepted', namesPath: false, namedPath: 'cwd_explicit' }),
    row({ namesPath: false, namedPath: 'service_tier' }),
    row({ path: '', predicted: 'accepted', observed: 'accepted', namesPath: false, outcome: 'a success' }),
  ]);
  expect(rows.map((r) => r.agree)).toEqual([true, false, false, false, true]);
  expect(disagreements.map((r) => r.reason)).toEqual([
    'predicted break on cwd_explicit not observed: a success',
    'observed break not predicted on cwd_explicit: error 4000',
    'predicted break on cwd_explicit observed as a rejection naming service_tier (error 4000)',
  ]);
  const table = renderSkewTable(rows, analyseSkew(CURRENT, PRE_CWD));
  expect(table).toContain('client v2 → server v1');
  expect(table).toContain('| session.create | carries cwd_explicit | rejected naming cwd_explicit |');
  expect(table).toContain('NO: predicted break on cwd_explicit not observed');
});

/** Runs the live probe with `client` → `declared` as the prediction, against a reference gateway serving `served`. */
async function probe(declared: typeof CURRENT, servedPath: string) {
  const gateway = await startGateway({ contractPaths: [servedPath] });
  try {
    return await skewProbeVerdict((options = {}) => RpcClient.connect({ dialect: HERMES_DIALECT, url: gateway.url, readyTimeoutMs: 2_000, ...options }), { client: CURRENT, target: declared, profile: HERMES_CODES });
  } finally {
    await gateway.close();
  }
}

test('live: the two Hermes documents, prediction and gateway agree', async () => {
  const same = await probe(CURRENT, CURRENT_PATH);
  expect(same.status, same.detail).toBe('pass');
  expect(same.rows.map((r) => [r.path, r.predicted, r.observed])).toEqual([['', 'accepted', 'accepted']]);
  const skewed = await probe(PRE_CWD, PRE_CWD_PATH);
  expect(skewed.status, skewed.detail).toBe('pass');
  expect(skewed.rows.map((r) => [r.method, r.path, r.predicted, r.observed, r.namesPath])).toEqual([
    ['session.create', 'cwd_explicit', 'rejected', 'rejected', true],
    ['session.create', '', 'accepted', 'accepted', false],
  ]);
  expect(skewed.detail).toContain('1 predicted break(s) (session.create cwd_explicit) all observed');
});

test('live: an older gateway declared as current shows an observed break that was not predicted', async () => {
  const verdict = await probe(CURRENT, PRE_CWD_PATH);
  expect(verdict.status).toBe('fail');
  expect(verdict.violations.map((v) => v.check)).toEqual(['skew.predicted-observed']);
  expect(verdict.violations[0]?.message).toMatch(/^session.create: observed break not predicted on cwd_explicit: error 4000/);
});

test('live: a newer gateway declared as the older document shows a predicted break that was not observed', async () => {
  const verdict = await probe(PRE_CWD, CURRENT_PATH);
  expect(verdict.status).toBe('fail');
  expect(verdict.violations[0]?.message).toMatch(/^session.create: predicted break on cwd_explicit not observed: a success/);
  expect(verdict.table).toContain('NO: predicted break on cwd_explicit not observed');
});
