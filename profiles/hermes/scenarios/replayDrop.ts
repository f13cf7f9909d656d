import type { CheckId } from '../../../src/checks/checkCatalogue.js';
import type { RpcClient } from '../../../src/client/rpcClient.js';
import { isJsonObject, type WireEvent } from '../../../core/index.js';
import { ReplayingClient } from './replayingClient.js';
import { judgeDelivery, judgeReplay } from './replayJudge.js';
import { aborted, Findings, type Connect, type ScenarioVerdict } from '../../../src/run/scenarioVerdict.js';
import { createSession, highestSeq, runTurn, ScenarioConnections, startTurn, TURN_TIMEOUT_MS } from './sessionDriver.js';

export type DropMode = 'clean-close' | 'abnormal-drop' | 'mid-stream';

export const DROP_CHECK: Record<DropMode, CheckId> = {
  'clean-close': 'scenario.replay-clean-close',
  'abnormal-drop': 'scenario.replay-abnormal-drop',
  'mid-stream': 'scenario.replay-mid-stream',
};

const DROP_WORDS: Record<DropMode, string> = {
  'clean-close': 'a clean close',
  'abnormal-drop': 'an abnormal drop',
  'mid-stream': 'a drop mid-stream',
};

/**
 * Length of the `/slow` turn of the mid-stream drop. The scenario drops A at the turn's first stamped event, then
 * attaches B, waits for an event there, reconnects A and activates it, and still needs a live event to come: all of
 * that must fit in what is left of the turn. On a loaded 2-core machine it took more than the half second that a
 * 1 s turn dropped at its first delta left; dropped at its first event, a 2 s turn leaves about 2 s (the turn's
 * steps are spread evenly over it), more than a 3 s turn dropped at its first delta left on the full document.
 */
export const SLOW_TURN_MS = 2_000;

const seqd = (event: WireEvent): boolean => typeof event.seq === 'number';

const range = (from: number, to: number): string => (from === to ? `${from}` : `${from}–${to}`);

/**
 * Reconnect replay. Connection A creates a session that survives its socket (`close_on_disconnect: false`), runs a
 * turn and drops (clean close, terminate, or terminate during a `/slow` turn). Connection B takes the session over
 * with `session.activate` and observes the events A misses (B runs a turn, or watches the slow turn go on). A
 * reconnects, takes the session back and replays from its watermark through the desktop client's parking logic.
 * The replay is judged against what B (and A's new socket) saw the gateway stamp; the client's delivered stream
 * must hold every seq once, in order.
 */
export async function dropReplayVerdict(connect: Connect, mode: DropMode): Promise<ScenarioVerdict> {
  const check = DROP_CHECK[mode];
  const findings = new Findings(check);
  const client = new ReplayingClient();
  const connections = new ScenarioConnections(connect);
  const open = (name: string): Promise<RpcClient> => connections.open(name);
  let step = 'connect A';
  let sessionId: string | undefined;
  try {
    const a = await open('a');
    client.attach(a);
    step = 'create a session on A (close_on_disconnect: false)';
    sessionId = (await createSession(a, { close_on_disconnect: false })).sessionId;
    const s = sessionId;
    step = 'run a turn on A';
    await runTurn(a, s, 'before the drop');
    if (mode === 'mid-stream') {
      step = `start a /slow ${SLOW_TURN_MS} turn on A and wait for its first stamped event`;
      const since = await startTurn(a, s, `/slow ${SLOW_TURN_MS}`);
      await a.events.waitFor({ sessionId: s, since, where: seqd }, TURN_TIMEOUT_MS);
    }
    const watermark = client.watermark(s) ?? 0;
    step = `drop A (${DROP_WORDS[mode]})`;
    if (mode === 'clean-close') await a.close();
    else {
      a.terminate();
      await a.closed;
    }

    step = 'attach B with session.activate';
    const b = await open('b');
    const bSince = b.events.length;
    await b.request('session.activate', { session_id: s });
    step = mode === 'mid-stream' ? 'watch the /slow turn go on from B' : 'run a turn on B';
    if (mode === 'mid-stream') await b.events.waitFor({ sessionId: s, since: bSince, where: seqd }, TURN_TIMEOUT_MS);
    else await runTurn(b, s, 'while A is away');

    step = 'reconnect A';
    const a2 = await open('a2');
    const pending = client.attach(a2);
    if (!pending.includes(s)) {
      const epoch = a2.ready?.payload;
      findings.fail(`the reconnected socket's gateway.ready carries replay_epoch ${JSON.stringify(isJsonObject(epoch) ? epoch['replay_epoch'] : undefined)}, not the epoch of the first socket, without a restart: every watermark is discarded`);
      return findings.verdict('');
    }
    const a2Since = a2.events.length;
    step = 'take the session back with session.activate on A';
    await a2.request('session.activate', { session_id: s });
    if (mode === 'mid-stream') {
      // A live frame that arrives before the replay answer must be parked, then delivered once.
      const live = await a2.events.waitFor({ sessionId: s, since: a2Since, where: seqd }, TURN_TIMEOUT_MS).catch(() => undefined);
      if (!findings.expect(live !== undefined, `after session.activate on the reconnected socket, no live event of the running /slow turn arrived within ${TURN_TIMEOUT_MS} ms`)) return findings.verdict('');
    }

    step = `session.events.since(${watermark})`;
    const observed = (): WireEvent[] => [a, b, a2].flatMap((connection) => connection.events.all({ sessionId: s }));
    const stampedBeforeRequest = observed();
    const settlement = await client.replay(a2, s);
    const stamped = observed();
    const prefix = `replay after ${DROP_WORDS[mode]} (last_seen ${watermark})`;
    if (settlement.status !== 'replayed') findings.fail(`${prefix}: ${settlement.status === 'failed' ? `the call failed: ${settlement.error ?? ''}` : `the result was ${settlement.status}`}`);
    else for (const problem of judgeReplay({ sessionId: s, lastSeen: watermark, result: settlement.result, stamped, stampedBeforeRequest, observedThroughAnswer: true })) findings.fail(`${prefix}: ${problem}`);

    if (mode === 'mid-stream') {
      step = 'wait for the end of the /slow turn on A';
      await a2.events.waitFor({ type: 'message.complete', sessionId: s, since: a2Since }, TURN_TIMEOUT_MS + SLOW_TURN_MS);
      findings.expect(settlement.parked > 0, `no live frame was parked during the replay although one arrived before the answer`);
    }
    const final = Math.max(...[a, b, a2].map((connection) => highestSeq(connection, s)));
    for (const problem of judgeDelivery(client.delivered, s, final)) findings.fail(`after ${DROP_WORDS[mode]}: ${problem}`);

    const result = isJsonObject(settlement.result) ? settlement.result : {};
    const latest = Number(result['latest_seq']);
    const parked = mode === 'mid-stream' ? `; ${settlement.parked} live frame(s) parked during the replay and delivered once` : '';
    return findings.verdict(
      `after ${DROP_WORDS[mode]} at seq ${watermark}, session.events.since(${watermark}) replayed exactly the seqs ${range(watermark + 1, latest)} stamped meanwhile, in order and as observed live (latest_seq ${latest}, count ${String(result['count'])})${parked}; the client delivered seqs ${range(1, final)} once each`,
    );
  } catch (error) {
    return aborted(check, step, error, findings.violations.map((v) => v.message));
  } finally {
    client.close();
    await connections.closeAll(sessionId);
  }
}
