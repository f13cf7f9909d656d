import type { RpcClient } from '../../../src/client/rpcClient.js';
import { isJsonObject } from '../../../core/index.js';
import { eventsSince } from './replayLimits.js';
import { ReplayingClient } from './replayingClient.js';
import { aborted, Findings, type Connect, type ScenarioVerdict } from '../../../src/run/scenarioVerdict.js';
import { createSession, runTurn, ScenarioConnections } from './sessionDriver.js';

export function readyEpoch(client: RpcClient): unknown {
  const payload = client.ready?.payload;
  return isJsonObject(payload) ? payload['replay_epoch'] : undefined;
}

const CLOSE_WAIT_MS = 3_000;

/**
 * The replay epoch: `gateway.ready` carries it, it is stable across connections of one process, and
 * `session.events.since` reports the same one. With `restart` (only an embedded gateway can be restarted), a
 * restart changes it, the new process reports the new one, and the replaying client discards its watermarks.
 */
export async function epochVerdict(connect: Connect, options: { restart?: () => Promise<void> }): Promise<ScenarioVerdict> {
  const findings = new Findings('scenario.replay-epoch');
  const client = new ReplayingClient();
  const connections = new ScenarioConnections(connect);
  const open = (name: string): Promise<RpcClient> => connections.open(name);
  let step = 'connect';
  let sessionId: string | undefined;
  try {
    const a = await open('a');
    const first = readyEpoch(a);
    if (!findings.expect(typeof first === 'string' && first.length > 0, `gateway.ready carries replay_epoch ${JSON.stringify(first)}, not a non-empty string${a.ready ? '' : ' (no gateway.ready arrived)'}`)) return findings.verdict('');
    client.attach(a);
    step = 'create a session and run a turn';
    sessionId = (await createSession(a, { close_on_disconnect: true })).sessionId;
    const s = sessionId;
    await runTurn(a, s, 'epoch');
    const watermark = client.watermark(s) ?? 0;
    step = 'session.events.since(0)';
    const replay = await eventsSince(a, s, 0);
    findings.expect(replay['epoch'] === first, `session.events.since reports epoch ${JSON.stringify(replay['epoch'])}, not the ready frame's ${first}`);
    step = 'connect a second socket';
    const second = readyEpoch(await open('b'));
    findings.expect(second === first, `a second connection's gateway.ready carries replay_epoch ${JSON.stringify(second)}, not ${first}, without a restart: clients would drop every watermark on each reconnect`);
    if (!options.restart) {
      return findings.verdict(`replay_epoch ${first} in gateway.ready, the same on a second connection and in session.events.since; the restart part is not applicable to an external target`);
    }

    step = 'restart the gateway';
    await options.restart();
    await Promise.race([a.closed, new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS))]);
    step = 'reconnect after the restart';
    const a2 = await open('a2');
    const renewed = readyEpoch(a2);
    findings.expect(typeof renewed === 'string' && renewed.length > 0 && renewed !== first, `after a restart gateway.ready carries replay_epoch ${JSON.stringify(renewed)}; a new non-empty epoch (not ${first}) is required, since every seq restarted at 1`);
    const pending = client.attach(a2);
    findings.expect(!pending.includes(s) && client.watermark(s) === undefined, `the replaying client kept its watermark ${watermark} for ${s} across the epoch change`);
    // The old watermark is ahead of the new ring's latest_seq: that it gives truncated: true is
    // scenario.replay-watermark-ahead's rule, so only the epoch of the answer is judged here.
    step = `session.events.since(${watermark}) after the restart`;
    const stale = await eventsSince(a2, s, watermark);
    findings.expect(stale['epoch'] === renewed, `after the restart session.events.since reports epoch ${JSON.stringify(stale['epoch'])}, not the new ready frame's ${JSON.stringify(renewed)}`);
    return findings.verdict(`replay_epoch ${first} (stable across connections, echoed by session.events.since); after a restart ${String(renewed)}, echoed by events.since, and the client's watermarks discarded`);
  } catch (error) {
    return aborted('scenario.replay-epoch', step, error, findings.violations.map((v) => v.message));
  } finally {
    client.close();
    await connections.closeAll(sessionId);
  }
}
