import { expect, test } from './helpers/test.js';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import WebSocket, { WebSocketServer } from 'ws';
import { startGateway, type RunningGateway } from '../../gateway/index.js';
import type { CheckId } from '../../src/checks/checkCatalogue.js';
import { HERMES_CODES } from './helpers/profiles.js';
import { RpcClient } from '../../src/client/rpcClient.js';
import { loadContractSync } from '../../src/contracts/index.js';
import { closeResumeVerdict, deleteLiveVerdict } from '../../profiles/hermes/scenarios/lifecycleScenarios.js';
import { DROP_CHECK, dropReplayVerdict, type DropMode } from '../../profiles/hermes/scenarios/replayDrop.js';
import { epochVerdict } from '../../profiles/hermes/scenarios/replayEpoch.js';
import { overflowVerdict, watermarkAheadVerdict } from '../../profiles/hermes/scenarios/replayLimits.js';
import { statsVerdict } from '../../profiles/hermes/scenarios/replayStats.js';
import type { Connect, ScenarioVerdict } from '../../src/run/scenarioVerdict.js';
import { remoteLaneVerdict, tolerantClientVerdict } from '../../profiles/hermes/scenarios/topologyScenarios.js';
import { analyseSkew } from '../../src/skew/index.js';
import { HERMES_DIALECT } from '../../profiles/hermes/dialect.js';

const CURRENT = loadContractSync(fileURLToPath(new URL('../../profiles/hermes/contracts/session-lifecycle.openrpc.json', import.meta.url)));

// The scenario verdicts against the reference gateway behind a small WebSocket proxy that rewrites answers: every
// check passes through a faithful proxy and fails, under its own check id, when the gateway's answers are falsified.

type Fault =
  | 'none'
  // replay
  | 'drop'
  | 'duplicate'
  | 'renumber'
  | 'truncated-false'
  | 'epoch'
  | 'stats'
  // lifecycle and topology
  | 'delete-live-allowed'
  | 'delete-again-ok'
  | 'resume-same-id'
  | 'resume-history-lost'
  | 'ignore-cwd';

type Json = Record<string, unknown>;

interface Request {
  method: string;
  params: Json;
}

/** Per-connection memory of the proxy. */
interface ProxyState {
  stats: number;
  created: string | undefined;
}

/** Rewrites one `session.events.since` result; each lie keeps `count` consistent so that only the events give it away. */
function falsifySince(result: Json, fault: Fault): void {
  const events = result['events'] as Json[];
  const last = events[events.length - 1];
  if (fault === 'drop' && events.length >= 2) events.splice(1, 1);
  if (fault === 'duplicate' && events[0]) events.splice(1, 0, { ...events[0] });
  if (fault === 'renumber' && last) {
    last['seq'] = (last['seq'] as number) + 1;
    result['latest_seq'] = last['seq'];
  }
  if (fault === 'truncated-false') result['truncated'] = false;
  if (fault === 'epoch') result['epoch'] = 'f'.repeat(32);
  result['count'] = events.length;
}

const ELSEWHERE = '/elsewhere';

/** The frame as the faulty gateway would have sent it. */
function falsify(frame: Json, request: Request | undefined, fault: Fault, state: ProxyState): Json {
  const result = frame['result'] as Json | undefined;
  const code = (frame['error'] as Json | undefined)?.['code'];
  const params = frame['params'] as Json | undefined;
  if (fault === 'ignore-cwd' && frame['method'] === 'event' && params?.['type'] === 'session.info') (params['payload'] as Json)['cwd'] = ELSEWHERE;
  if (!request) return frame;
  const { method } = request;
  const deleted = { jsonrpc: '2.0', id: frame['id'], result: { deleted: request.params['session_id'] } };
  if (method === 'session.delete' && ((fault === 'delete-live-allowed' && code === 4023) || (fault === 'delete-again-ok' && code === 4007))) return deleted;
  if (!result || typeof result !== 'object') return frame;
  if (method === 'session.events.since') falsifySince(result, fault);
  // Every stats answer after the first counts one event too many: the totals miscount what was produced.
  if (method === 'session.events.stats' && fault === 'stats' && state.stats++ > 0) result['events'] = (result['events'] as number) + 1;
  if (method === 'session.create') {
    state.created ??= result['session_id'] as string;
    if (fault === 'ignore-cwd') (result['info'] as Json)['cwd'] = ELSEWHERE;
  }
  if (method === 'session.resume' && fault === 'resume-same-id') result['session_id'] = state.created;
  if (method === 'session.resume' && fault === 'resume-history-lost') Object.assign(result, { messages: [], message_count: 0 });
  return frame;
}

function rewrite(text: string, requests: Map<string, Request>, fault: Fault, state: ProxyState): string {
  if (fault === 'none') return text;
  let frame: Json;
  try {
    frame = JSON.parse(text) as Json;
  } catch {
    return text;
  }
  const request = 'id' in frame && !('method' in frame) ? requests.get(JSON.stringify(frame['id'])) : undefined;
  return JSON.stringify(falsify(frame, request, fault, state));
}

/** A WebSocket proxy in front of `upstream` that forwards every frame and close, rewriting answers and events per `fault`. */
async function faultyProxy(upstream: string, fault: Fault): Promise<{ url: string; close: () => Promise<void> }> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  server.on('connection', (downstream, request) => {
    const query = request.url?.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    const up = new WebSocket(`${upstream}${query}`);
    const requests = new Map<string, Request>();
    const queued: string[] = [];
    const state: ProxyState = { stats: 0, created: undefined };
    up.on('open', () => queued.splice(0).forEach((text) => up.send(text)));
    up.on('message', (data) => downstream.readyState === WebSocket.OPEN && downstream.send(rewrite(data.toString(), requests, fault, state)));
    up.on('close', (code) => (code === 1005 || code === 1006 ? downstream.terminate() : downstream.close(code)));
    up.on('error', () => downstream.terminate());
    downstream.on('message', (data) => {
      const text = data.toString();
      try {
        const frame = JSON.parse(text) as Json;
        if (typeof frame['method'] === 'string' && 'id' in frame) requests.set(JSON.stringify(frame['id']), { method: frame['method'], params: (frame['params'] ?? {}) as Json });
      } catch {
        // junk goes through as is
      }
      if (up.readyState === WebSocket.OPEN) up.send(text);
      else queued.push(text);
    });
    downstream.on('close', (code) => (code === 1005 || code === 1006 ? up.terminate() : up.close(code)));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/api/ws`,
    close: async () => {
      for (const client of server.clients) client.terminate();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function throughProxy(fault: Fault, run: (connect: Connect, gateway: RunningGateway) => Promise<ScenarioVerdict>): Promise<ScenarioVerdict> {
  const gateway = await startGateway({});
  const proxy = await faultyProxy(gateway.url, fault);
  const connect: Connect = (options = {}) => RpcClient.connect({ dialect: HERMES_DIALECT, url: proxy.url, readyTimeoutMs: 2_000, ...options });
  try {
    return await run(connect, gateway);
  } finally {
    await proxy.close();
    await gateway.close();
  }
}

function expectFailure(verdict: ScenarioVerdict, check: CheckId, pattern: RegExp): void {
  expect(verdict.status, verdict.detail).toBe('fail');
  // How many violations follow depends on where the scripted turn was cut; the one the fault causes is among them.
  expect(verdict.violations.map((v) => v.message), `a violation matching ${String(pattern)}`).toContainEqual(expect.stringMatching(pattern));
  expect(verdict.violations.filter((v) => v.check !== check), `violations of checks other than ${check}`).toEqual([]);
}

const REPLAY_FAULTS: Array<[Fault, RegExp]> = [
  ['drop', /gap: seq \d+ .*missing from the replay/],
  ['duplicate', /duplicate: seq \d+ .*replayed twice/],
  ['renumber', /gap: seq \d+|never stamped/],
];

for (const mode of ['clean-close', 'abnormal-drop', 'mid-stream'] as const satisfies readonly DropMode[]) {
  test(`${DROP_CHECK[mode]} passes through a faithful proxy`, async () => {
    const verdict = await throughProxy('none', (connect) => dropReplayVerdict(connect, mode));
    expect(verdict.status, verdict.detail).toBe('pass');
  });
  for (const [fault, pattern] of REPLAY_FAULTS) {
    test(`${DROP_CHECK[mode]} fails when the gateway's replay has a ${fault} fault`, async () => {
      expectFailure(await throughProxy(fault, (connect) => dropReplayVerdict(connect, mode)), DROP_CHECK[mode], pattern);
    });
  }
}

test('a dropped replay event also leaves a hole in what the replaying client delivers', async () => {
  const verdict = await throughProxy('drop', (connect) => dropReplayVerdict(connect, 'clean-close'));
  expect(verdict.violations.map((v) => v.message).join('\n')).toMatch(/the client never delivered seq \d+/);
});

test('a renumbered replay event costs the mid-stream client a live frame: parked and live frames at or below the bad seq are dropped', async () => {
  const verdict = await throughProxy('renumber', (connect) => dropReplayVerdict(connect, 'mid-stream'));
  expect(verdict.violations.map((v) => v.message).join('\n')).toMatch(/never stamped: the highest seq the gateway sent before answering is \d+/);
  expect(verdict.violations.map((v) => v.message).join('\n')).toMatch(/the client never delivered seq \d+/);
});

for (const [check, run] of [
  ['scenario.replay-overflow', (connect: Connect) => overflowVerdict(connect)],
  ['scenario.replay-watermark-ahead', (connect: Connect) => watermarkAheadVerdict(connect)],
] as const) {
  test(`${check} passes through a faithful proxy`, async () => {
    const verdict = await throughProxy('none', run);
    expect(verdict.status, verdict.detail).toBe('pass');
  });
  for (const [fault, pattern] of [...REPLAY_FAULTS, ['truncated-false', /truncated/]] as Array<[Fault, RegExp]>) {
    // A retained watermark's replay is the drop checks' rule: watermark-ahead judges only where truncation is reported.
    if (check === 'scenario.replay-watermark-ahead' && fault !== 'truncated-false') {
      test(`${check} leaves a ${fault} fault in a retained watermark's replay to the drop checks`, async () => {
        const verdict = await throughProxy(fault, run);
        expect(verdict.status, verdict.detail).toBe('pass');
      });
      continue;
    }
    test(`${check} fails when the gateway's replay has a ${fault} fault`, async () => {
      const relaxed = check === 'scenario.replay-overflow' && fault !== 'truncated-false' ? /not contiguous|gap|duplicate|never stamped|latest_seq/ : pattern;
      expectFailure(await throughProxy(fault, run), check, relaxed);
    });
  }
}

test('scenario.replay-epoch passes through a faithful proxy, with and without a restart', async () => {
  expect((await throughProxy('none', (connect, gateway) => epochVerdict(connect, { restart: () => gateway.restart() }))).status).toBe('pass');
  const external = await throughProxy('none', (connect) => epochVerdict(connect, {}));
  expect(external.status).toBe('pass');
  expect(external.detail).toContain('restart part is not applicable');
});

test('scenario.replay-epoch fails when events.since reports another epoch than gateway.ready', async () => {
  expectFailure(await throughProxy('epoch', (connect) => epochVerdict(connect, {})), 'scenario.replay-epoch', /reports epoch "f{32}", not the ready frame's/);
  expectFailure(await throughProxy('epoch', (connect, gateway) => epochVerdict(connect, { restart: () => gateway.restart() })), 'scenario.replay-epoch', /epoch/);
});

test('scenario.replay-stats passes exactly on a fresh gateway and fails when the stats miscount', async () => {
  expect((await throughProxy('none', (connect) => statsVerdict(connect, { exact: true }))).status).toBe('pass');
  expect((await throughProxy('none', (connect) => statsVerdict(connect, { exact: false }))).status).toBe('pass');
  expectFailure(await throughProxy('stats', (connect) => statsVerdict(connect, { exact: true })), 'scenario.replay-stats', /produced \d+ events but stats.events rose by \d+/);
});

test('scenario.lifecycle-delete-live passes through a faithful proxy and fails when a live or a missing row can be deleted', async () => {
  expect((await throughProxy('none', (connect) => deleteLiveVerdict(connect))).status).toBe('pass');
  expectFailure(await throughProxy('delete-live-allowed', (connect) => deleteLiveVerdict(connect)), 'scenario.lifecycle-delete-live', /while its session \w+ is live answered a success .*not 4023/);
  expectFailure(await throughProxy('delete-again-ok', (connect) => deleteLiveVerdict(connect)), 'scenario.lifecycle-delete-live', /a second session.delete of \S+ answered a success .*not 4007/);
});

test('scenario.lifecycle-close-resume passes through a faithful proxy and fails on a reused runtime id or a lost history', async () => {
  expect((await throughProxy('none', (connect) => closeResumeVerdict(connect))).status).toBe('pass');
  expectFailure(await throughProxy('resume-same-id', (connect) => closeResumeVerdict(connect)), 'scenario.lifecycle-close-resume', /session.resume by stored id .* reused runtime id/);
  expectFailure(await throughProxy('resume-history-lost', (connect) => closeResumeVerdict(connect)), 'scenario.lifecycle-close-resume', /history \[\] differs from the history before the close \["user: remember me","assistant: echo: remember me"\]/);
});

test('scenario.topology-remote fails when the gateway ignores the sent cwd; scenario.tolerant-client, whose first create needs no resend, leaves that to it', async () => {
  const report = analyseSkew(CURRENT, CURRENT);
  expect((await throughProxy('none', (connect) => remoteLaneVerdict(connect, { report, profile: HERMES_CODES }))).status).toBe('pass');
  expectFailure(await throughProxy('ignore-cwd', (connect) => remoteLaneVerdict(connect, { report, profile: HERMES_CODES })), 'scenario.topology-remote', /session cwd is "\/elsewhere", not the sent "\/"/);
  const tolerant = await throughProxy('ignore-cwd', (connect) => tolerantClientVerdict(connect, { report, profile: HERMES_CODES, targetCreateClosed: true }));
  expect(tolerant.status, tolerant.detail).toBe('pass');
});
