import { expect, test } from './helpers/test.js';
import { fileURLToPath } from 'node:url';
import { startGateway } from '../../gateway/index.js';
import { HERMES_CODES } from './helpers/profiles.js';
import { RpcClient } from '../../src/client/rpcClient.js';
import { loadContractSync, type Contract } from '../../src/contracts/index.js';
import { HERMES_OUT_OF_SYNC_SUFFIX } from '../../profiles/hermes/errorCodes.js';
import { judgeRemoteLanePage, pageExpectation, type PageReadout } from '../../profiles/hermes/scenarios/remoteLanePage.js';
import type { Connect, ScenarioVerdict } from '../../src/run/scenarioVerdict.js';
import { closedParams, localLaneVerdict, predictedUnknownKeys, remoteLaneVerdict, tolerantClientVerdict } from '../../profiles/hermes/scenarios/topologyScenarios.js';
import { analyseSkew } from '../../src/skew/index.js';
import { HERMES_DIALECT } from '../../profiles/hermes/dialect.js';

const path = (name: string) => fileURLToPath(new URL(`../../profiles/hermes/contracts/${name}`, import.meta.url));
const CURRENT_PATH = path('session-lifecycle.openrpc.json');
const PRE_CWD_PATH = path('session-lifecycle.pre-cwd-explicit.openrpc.json');
const CURRENT = loadContractSync(CURRENT_PATH);
const PRE_CWD = loadContractSync(PRE_CWD_PATH);

async function against(servedPath: string, run: (connect: Connect) => Promise<ScenarioVerdict>, options: { legacyMessages?: boolean } = {}): Promise<ScenarioVerdict> {
  const gateway = await startGateway({ contractPaths: [servedPath], ...options });
  try {
    return await run((connectOptions = {}) => RpcClient.connect({ dialect: HERMES_DIALECT, url: gateway.url, readyTimeoutMs: 2_000, ...connectOptions }));
  } finally {
    await gateway.close();
  }
}

const lanes = (declared: Contract) => {
  const report = analyseSkew(CURRENT, declared);
  return {
    local: (connect: Connect) => localLaneVerdict(connect),
    remote: (connect: Connect) => remoteLaneVerdict(connect, { report, profile: HERMES_CODES }),
    tolerant: (connect: Connect) => tolerantClientVerdict(connect, { report, profile: HERMES_CODES, targetCreateClosed: closedParams(declared, 'session.create') }),
  };
};

test('the analyser predicts exactly the cwd_explicit break for the desktop against the pre-cwd_explicit document', () => {
  expect(predictedUnknownKeys(analyseSkew(CURRENT, PRE_CWD), 'session.create', ['cwd', 'cwd_explicit']).map((f) => f.path)).toEqual(['cwd_explicit']);
  expect(predictedUnknownKeys(analyseSkew(CURRENT, CURRENT), 'session.create')).toEqual([]);
  expect(closedParams(PRE_CWD, 'session.create')).toBe(true);
  expect(closedParams(PRE_CWD, 'no.such.method')).toBe(false);
});

test('current backend: both lanes create, the remote session keeps the sent cwd, the tolerant client needs one attempt', async () => {
  const run = lanes(CURRENT);
  const local = await against(CURRENT_PATH, run.local);
  const remote = await against(CURRENT_PATH, run.remote);
  const tolerant = await against(CURRENT_PATH, run.tolerant);
  expect([local.status, remote.status, tolerant.status], [local.detail, remote.detail, tolerant.detail].join('\n')).toEqual(['pass', 'pass', 'pass']);
  expect(remote.detail).toMatch(/accepted as predicted for client v2 → server v2: session \w{8}, cwd "\/"/);
  expect(tolerant.detail).toMatch(/not needed: the first create succeeded \(as predicted\)/);
  expect(tolerant.detail).toContain('a rejection naming service_tier_x was not retried (1 attempt)');
});

test('pre-cwd_explicit backend: the local lane creates, the remote lane reproduces the predicted skew, the tolerant client recovers', async () => {
  const run = lanes(PRE_CWD);
  const local = await against(PRE_CWD_PATH, run.local);
  const remote = await against(PRE_CWD_PATH, run.remote);
  const tolerant = await against(PRE_CWD_PATH, run.tolerant);
  expect([local.status, remote.status, tolerant.status], [local.detail, remote.detail, tolerant.detail].join('\n')).toEqual(['pass', 'pass', 'pass']);
  expect(remote.detail).toMatch(/^version skew reproduced: .* rejected with 4000 naming cwd_explicit, as analyseSkew predicts for client v2 → server v1$/);
  expect(tolerant.detail).toMatch(/resent once without cwd_explicit after the exact 4000 \(as predicted\), session cwd "\/"/);
  // v0.21.3 wording (no out-of-sync suffix) is the same skew.
  expect((await against(PRE_CWD_PATH, run.remote, { legacyMessages: true })).status).toBe('pass');
});

test('a gateway older than its declared contract fails the remote lane (unpredicted skew) while the tolerant client still recovers', async () => {
  const run = lanes(CURRENT);
  const remote = await against(PRE_CWD_PATH, run.remote);
  expect(remote.status).toBe('fail');
  expect(remote.violations[0]).toMatchObject({ check: 'scenario.topology-remote' });
  expect(remote.detail).toMatch(/predicts that session.create .* is accepted .* but the gateway answered error 4000 .* unpredicted version skew/);
  const tolerant = await against(PRE_CWD_PATH, run.tolerant);
  expect(tolerant.status).toBe('pass');
  expect(tolerant.detail).toContain('although analyseSkew predicts no rejection of cwd_explicit');
});

test('a gateway newer than its declared contract fails the remote lane (predicted skew not observed)', async () => {
  const remote = await against(CURRENT_PATH, lanes(PRE_CWD).remote);
  expect(remote.status).toBe('fail');
  expect(remote.detail).toMatch(/predicts that session.create .* is rejected naming cwd_explicit .* but the gateway answered a success \(the target accepts the newer key/);
});

const readout = (overrides: Partial<PageReadout>): PageReadout => ({ state: 'accepted', draftVisible: true, sessionId: 'abcd1234', bannerVisible: false, bannerText: '', bannerMessage: '', errorText: '', ...overrides });
const banner = `invalid params for session.create: cwd_explicit: Extra inputs are not permitted${HERMES_OUT_OF_SYNC_SUFFIX}`;

test('judgeRemoteLanePage: the page must show what the analyser predicts', () => {
  const accept = pageExpectation(analyseSkew(CURRENT, CURRENT));
  const reject = pageExpectation(analyseSkew(CURRENT, PRE_CWD));
  expect(reject).toEqual({ rejectedPaths: ['cwd_explicit'], sides: 'client v2 → server v1' });
  const outOfSync = readout({ state: 'out-of-sync', draftVisible: false, sessionId: '', bannerVisible: true, bannerText: `Out of sync: … ${banner}`, bannerMessage: banner });
  expect(judgeRemoteLanePage(readout({}), accept, HERMES_CODES)).toEqual([]);
  expect(judgeRemoteLanePage(outOfSync, reject, HERMES_CODES)).toEqual([]);
  expect(judgeRemoteLanePage(outOfSync, accept, HERMES_CODES)[0]).toMatch(/predicts that the desktop's create is accepted \(client v2 → server v2\); the page shows the out-of-sync banner/);
  expect(judgeRemoteLanePage(readout({}), reject, HERMES_CODES)[0]).toMatch(/predicts a rejection naming cwd_explicit .*; the page shows "draft accepted" \(session abcd1234\)/);
  expect(judgeRemoteLanePage(readout({ state: 'error', draftVisible: false, errorText: 'connection closed (4401)' }), accept, HERMES_CODES)[0]).toContain('state error ("connection closed (4401)")');
  expect(judgeRemoteLanePage({ ...outOfSync, bannerVisible: false }, reject, HERMES_CODES)[0]).toMatch(/no visible "out of sync" banner/);
  expect(judgeRemoteLanePage({ ...outOfSync, bannerMessage: banner.replace('cwd_explicit', 'service_tier') }, reject, HERMES_CODES)[0]).toMatch(/does not name cwd_explicit/);
  expect(judgeRemoteLanePage(readout({ sessionId: '' }), accept, HERMES_CODES)).toEqual(['the page shows "draft accepted" without a session id']);
});
