import { expect, test } from './helpers/test.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startGateway, type RunningGateway } from '../../gateway/index.js';
import { loadBindingRules } from '../../src/binding/bindingRules.js';
import { RpcClient } from '../../src/client/rpcClient.js';
import { HERMES_BINDINGS, SESSION_LIFECYCLE_CONTRACT } from '../../profiles/hermes/paths.js';
import { loadContractSync } from '../../src/contracts/index.js';
import { isFrameReplay, runFrameReplay, type ProxyReport } from '../../src/proxy/index.js';
import { readReplayFile } from '../../src/replay/replayFile.js';
import { runReplay } from '../../src/replay/replayRunner.js';
import { WsTestClient } from './helpers/gatewayWsClient.js';
import { startWatchedProxy, type WatchedProxy } from './helpers/proxyHarness.js';
import { HERMES_CODES, HERMES_PROFILE } from './helpers/profiles.js';
import { HERMES_DIALECT } from '../../profiles/hermes/dialect.js';
import { scratchDir } from './helpers/scratchDir.js';

// A deliberately faulty reference gateway behind the proxy, driven by a plain client: a result that breaks its
// schema (result.undeclared-key: session.title results carry `debug`) and a repeated seq (event.seq-repeats: a live
// error event repeats the seq before it). Each is reported once per frame kind, with its check id; the same client
// against the clean gateway gives no finding.

const CONTRACT = loadContractSync(SESSION_LIFECYCLE_CONTRACT);
const BINDINGS = loadBindingRules(HERMES_BINDINGS);
const FAULTS = ['result.undeclared-key', 'event.seq-repeats'];

/** What a TUI does in a minute: open a session, name it twice, two turns that fail. */
async function driveClient(url: string): Promise<WsTestClient> {
  const client = await WsTestClient.open(url);
  await client.waitFor((f) => f['method'] === 'event' && (f['params'] as { type?: string }).type === 'gateway.ready');
  const created = await client.call<{ session_id: string }>('session.create', { cwd: '/srv/project' });
  const sessionId = created.session_id;
  await client.waitFor((f) => (f['params'] as { type?: string; session_id?: string } | undefined)?.type === 'session.info');
  await client.request('session.title', { session_id: sessionId, title: 'first' });
  await client.request('session.title', { session_id: sessionId });
  for (const round of [1, 2]) {
    await client.request('prompt.submit', { session_id: sessionId, text: `/fail on purpose ${round}` });
    await client.waitFor((f) => (f['params'] as { type?: string } | undefined)?.type === 'error' && client.events().filter((e) => e['type'] === 'error').length >= round);
  }
  await client.request('prompt.submit', { session_id: sessionId, text: 'hello' });
  await client.waitFor((f) => {
    const params = f['params'] as { type?: string; payload?: { text?: string } } | undefined;
    return params?.type === 'message.complete' && params.payload?.text === 'echo: hello';
  });
  return client;
}

async function watchRun(faults: string[]): Promise<{ report: ProxyReport; proxy: WatchedProxy; gateway: RunningGateway; client: WsTestClient; reportDir: string }> {
  const gateway = await startGateway({ contractPaths: [SESSION_LIFECYCLE_CONTRACT], faults });
  const proxy = await startWatchedProxy({ upstream: gateway.url, server: CONTRACT, bindings: BINDINGS });
  const client = await driveClient(proxy.url);
  client.close();
  await client.waitClosed();
  const reportDir = scratchDir('proxy-faulty');
  const report = await proxy.stop(reportDir);
  return { report, proxy, gateway, client, reportDir };
}

test('a result schema break and a repeated seq are each reported once per frame kind with their check ids', async () => {
  const { report, proxy, gateway, client, reportDir } = await watchRun(FAULTS);
  try {
    const found = report.findings.map((r) => `${r.first.subject} × ${r.first.check} @ ${r.first.path}`).sort();
    expect(found).toEqual(['(session events) × event.seq-monotonic @ params.seq', 'session.title × result.schema @ result.debug']);
    // Both title answers and both failed turns broke the rule; the live output has one line for each kind.
    const title = report.findings.find((r) => r.first.check === 'result.schema');
    const seq = report.findings.find((r) => r.first.check === 'event.seq-monotonic');
    expect(title?.occurrences).toBe(2);
    expect(seq?.occurrences).toBeGreaterThanOrEqual(2);
    expect(title?.first.message).toContain('must NOT have additional properties "debug"');
    expect(seq?.first.message).toMatch(/seq repeats or goes back from (\d+) to \1 \(event error\)/);
    expect(proxy.watch.live.map((line) => /^\S+ c\d+ (\(session events\)|\S+) (\S+) (\S+) \{/.exec(line)?.slice(1).join(' ')).sort()).toEqual(['(session events) event.seq-monotonic params.seq', 'session.title result.schema result.debug']);
    // The client got every frame the gateway sent, unchanged.
    expect(proxy.watch.crossed.filter((f) => f.from === 'server').map((f) => JSON.parse(f.text) as unknown)).toEqual(client.frames);

    const matrix = JSON.parse(readFileSync(join(reportDir, 'matrix.json'), 'utf8')) as { cells: Array<{ method: string; check: string; status: string; detail?: string; replay?: string; transcript?: string }> };
    const failing = matrix.cells.filter((cell) => cell.status === 'fail');
    expect(failing.map((cell) => `${cell.method} × ${cell.check}`).sort()).toEqual(['(session events) × event.seq-monotonic', 'session.title × result.schema']);
    expect(failing.find((cell) => cell.check === 'result.schema')?.detail).toMatch(/^2 of 2 frames broke the rule/);
    // Replay files are numbered in the order the findings came: the client names the session before its turns fail.
    const replayFile: Record<string, string> = {
      'result.schema': 'replays/001-session.title--result.schema.json',
      'event.seq-monotonic': 'replays/002-session_events--event.seq-monotonic.json',
    };
    for (const cell of failing) {
      expect(cell.transcript).toBe('transcripts/c1.txt');
      expect(cell.replay, cell.check).toBe(replayFile[cell.check]);
    }
    for (const subject of ['session.create', 'prompt.submit', 'session.info', 'error', 'message.complete']) expect(matrix.cells.some((cell) => cell.method === subject), subject).toBe(true);

    // The replays reproduce on the faulty gateway and not on a clean one.
    const titleReplay = readReplayFile(join(reportDir, failing.find((cell) => cell.check === 'result.schema')?.replay ?? ''));
    const seqReplay = readReplayFile(join(reportDir, failing.find((cell) => cell.check === 'event.seq-monotonic')?.replay ?? ''));
    expect(isFrameReplay(seqReplay)).toBe(true);
    const clean = await startGateway({ contractPaths: [SESSION_LIFECYCLE_CONTRACT] });
    const onFaulty = await RpcClient.connect({ dialect: HERMES_DIALECT, url: gateway.url });
    const onClean = await RpcClient.connect({ dialect: HERMES_DIALECT, url: clean.url });
    try {
      expect((await runReplay(titleReplay, CONTRACT, HERMES_CODES, onFaulty, 5_000)).reproduced).toBe(true);
      expect((await runReplay(titleReplay, CONTRACT, HERMES_CODES, onClean, 5_000)).reproduced).toBe(false);
      if (!isFrameReplay(seqReplay)) throw new Error('the seq finding has no frame replay');
      expect((await runFrameReplay(seqReplay, CONTRACT, HERMES_PROFILE, gateway.url, 5_000)).reproduced).toBe(true);
      expect((await runFrameReplay(seqReplay, CONTRACT, HERMES_PROFILE, clean.url, 5_000)).reproduced).toBe(false);
    } finally {
      await onFaulty.close();
      await onClean.close();
      await clean.close();
    }
  } finally {
    await gateway.close();
  }
});

test('the same client against the clean gateway: no finding, every observed cell passes', async () => {
  const { report, proxy, gateway, reportDir } = await watchRun([]);
  try {
    expect(report.findings.map((r) => `${r.first.subject} × ${r.first.check}: ${r.first.message}`)).toEqual([]);
    expect(proxy.watch.live).toEqual([]);
    const matrix = JSON.parse(readFileSync(join(reportDir, 'matrix.json'), 'utf8')) as { verdict: string; cells: Array<{ method: string; check: string; status: string }> };
    expect(matrix.verdict).toBe('pass');
    expect(matrix.cells.find((cell) => cell.method === 'session.title' && cell.check === 'result.schema')?.status).toBe('pass');
    expect(matrix.cells.find((cell) => cell.method === '(session events)' && cell.check === 'event.seq-monotonic')?.status).toBe('pass');
  } finally {
    await gateway.close();
  }
});
