import type { RpcClient } from '../../../src/client/rpcClient.js';
import { isJsonObject, type WireEvent, type JsonObject } from '../../../core/index.js';
import { sameEvent, stampedBySeq } from './replayJudge.js';
import { aborted, Findings, notApplicable, type Connect, type ScenarioVerdict } from '../../../src/run/scenarioVerdict.js';
import { closeQuietly, createSession, highestSeq, runTurn, waitBuilt } from './sessionDriver.js';

/** The ring size of spec §4, used when the target does not report `max_per_session`. */
export const DEFAULT_RING_EVENTS = 512;
/** Beyond this ring size the overflow burst would not fit the scenario's time budget. */
export const MAX_BURST_EVENTS = 4_000;
const OVERFLOW_MARGIN = 10;
/** A target whose turns are too slow to overflow its ring in this time is not judged (a model-backed staging gateway). */
export const OVERFLOW_BUDGET_MS = 20_000;

const isInt = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

export async function eventsSince(client: RpcClient, sessionId: string, lastSeen: number): Promise<JsonObject> {
  const result = await client.request('session.events.since', { session_id: sessionId, last_seen: lastSeen });
  if (!isJsonObject(result)) throw new Error(`session.events.since answered ${JSON.stringify(result)?.slice(0, 120)}, not an object`);
  return result;
}

/**
 * Judges the retained tail an overflowed ring returns for an evicted watermark: `truncated: true`, at most
 * `maxEvents` events, contiguous, ending at `latest_seq`, as stamped, `count == events.length`.
 */
export function judgeRetainedTail(result: JsonObject, lastSeen: number, stamped: readonly WireEvent[], maxEvents: number): string[] {
  const problems: string[] = [];
  const events = Array.isArray(result['events']) ? result['events'].filter(isJsonObject) : [];
  const latest = result['latest_seq'];
  if (result['truncated'] !== true) problems.push(`truncated is ${JSON.stringify(result['truncated'])} for watermark ${lastSeen}, whose successors were evicted from the ring (latest_seq ${String(latest)}): the client would trust an incomplete replay`);
  if (result['count'] !== events.length) problems.push(`count is ${JSON.stringify(result['count'])} but ${events.length} events were returned`);
  if (events.length > maxEvents) problems.push(`${events.length} events returned, more than the ring holds (max_per_session ${maxEvents})`);
  if (events.length === 0) problems.push('no retained event was returned after the overflow');
  const seqs = events.map((event) => event['seq']);
  const original = stampedBySeq(stamped);
  for (const [index, seq] of seqs.entries()) {
    if (!isInt(seq)) problems.push(`events[${index}] has no integer seq`);
    else if (index > 0 && seq !== Number(seqs[index - 1]) + 1) problems.push(`the retained tail is not contiguous: seq ${String(seqs[index - 1])} is followed by seq ${seq}`);
    const live = isInt(seq) ? original.get(seq) : undefined;
    const event = events[index];
    if (live && event && !sameEvent(live, event)) problems.push(`seq ${String(seq)} is replayed as ${String(event['type'])} but was stamped as ${live.type}`);
  }
  const last = seqs[seqs.length - 1];
  if (isInt(last) && last !== latest) problems.push(`the retained tail ends at seq ${last}, not at latest_seq ${String(latest)}`);
  const highest = Math.max(0, ...original.keys());
  if (latest !== highest) problems.push(`latest_seq is ${String(latest)} but the gateway stamped up to seq ${highest}`);
  return problems.slice(0, 8);
}

/**
 * Ring overflow: a burst of short turns stamps more events than the ring holds; an evicted watermark must give
 * `truncated: true` with the retained tail, while a recent watermark still replays exactly.
 */
export async function overflowVerdict(connect: Connect): Promise<ScenarioVerdict> {
  const findings = new Findings('scenario.replay-overflow');
  let step = 'connect';
  let client: RpcClient | undefined;
  let sessionId: string | undefined;
  try {
    client = await connect({ name: 'a' });
    step = 'session.events.stats';
    const stats = await client.request('session.events.stats', {}).catch(() => undefined);
    const reported = isJsonObject(stats) ? stats['max_per_session'] : undefined;
    const ring = isInt(reported) && reported > 0 ? reported : DEFAULT_RING_EVENTS;
    if (ring > MAX_BURST_EVENTS) return notApplicable(`the target's ring holds ${ring} events per session; a burst that large does not fit the scenario's time budget`);
    step = 'create a session and wait for its agent';
    sessionId = (await createSession(client, { close_on_disconnect: true })).sessionId;
    const s = sessionId;
    await waitBuilt(client, s);
    const oldest = highestSeq(client, s);
    const goal = oldest + ring + OVERFLOW_MARGIN;
    let turns = 0;
    const started = Date.now();
    while (highestSeq(client, s) < goal) {
      if (Date.now() - started > OVERFLOW_BUDGET_MS) {
        return notApplicable(`${turns} turns stamped only ${highestSeq(client, s)} of the ${goal} events needed to overflow the ${ring}-event ring within ${OVERFLOW_BUDGET_MS / 1000} s: the target's turns are too slow for this scenario`);
      }
      step = `burst turn ${turns + 1} (seq ${highestSeq(client, s)} of ${goal})`;
      const before = highestSeq(client, s);
      await runTurn(client, s, `burst ${++turns}`);
      if (highestSeq(client, s) === before) throw new Error('a turn stamped no event');
    }
    const stamped = client.events.all({ sessionId: s });
    const latest = highestSeq(client, s);
    step = `session.events.since(${oldest})`;
    const old = await eventsSince(client, s, oldest);
    for (const problem of judgeRetainedTail(old, oldest, stamped, ring)) findings.fail(`after ${latest} events in a ${ring}-event ring: ${problem}`);
    // The control shows that truncation is reported for the evicted watermark only; what a retained watermark
    // replays is the rule of the scenario.replay-* drop checks.
    const recent = latest - 5;
    step = `session.events.since(${recent})`;
    const control = await eventsSince(client, s, recent);
    findings.expect(control['truncated'] === false, `recent watermark ${recent} after the overflow: truncated is ${JSON.stringify(control['truncated'])}, not false; the ring still holds every event after it`);
    return findings.verdict(
      `${turns} turns stamped ${latest} events into a ${ring}-event ring: since(${oldest}) gave truncated: true with the ${String(old['count'])} retained events (seq ${String((old['events'] as JsonObject[])[0]?.['seq'])}–${String(old['latest_seq'])}); since(${recent}) was not truncated`,
    );
  } catch (error) {
    return aborted('scenario.replay-overflow', step, error, findings.violations.map((v) => v.message));
  } finally {
    if (client && sessionId) await closeQuietly(client, sessionId);
    await client?.close().catch(() => undefined);
  }
}

/** A watermark ahead of `latest_seq` (a stale ring) must give `truncated: true`; the watermark at `latest_seq` must not. */
export async function watermarkAheadVerdict(connect: Connect): Promise<ScenarioVerdict> {
  const findings = new Findings('scenario.replay-watermark-ahead');
  let step = 'connect';
  let client: RpcClient | undefined;
  let sessionId: string | undefined;
  try {
    client = await connect({ name: 'a' });
    step = 'create a session and run a turn';
    sessionId = (await createSession(client, { close_on_disconnect: true })).sessionId;
    const s = sessionId;
    await runTurn(client, s, 'watermark');
    const latest = highestSeq(client, s);
    step = `session.events.since(${latest + 5})`;
    const ahead = await eventsSince(client, s, latest + 5);
    findings.expect(ahead['truncated'] === true, `since(${latest + 5}) with latest_seq ${latest}: truncated is ${JSON.stringify(ahead['truncated'])}, not true (a watermark from another ring must not be trusted)`);
    findings.expect(ahead['latest_seq'] === latest, `since(${latest + 5}): latest_seq is ${JSON.stringify(ahead['latest_seq'])}, not ${latest}`);
    findings.expect(Array.isArray(ahead['events']) && ahead['events'].length === 0 && ahead['count'] === 0, `since(${latest + 5}) returned ${JSON.stringify(ahead['count'])} event(s); nothing lies beyond the watermark`);
    // The controls show that truncation is reserved for watermarks ahead of latest_seq; what a retained watermark
    // replays is the rule of the scenario.replay-* drop checks.
    for (const held of [latest, latest - 2]) {
      step = `session.events.since(${held})`;
      const control = await eventsSince(client, s, held);
      findings.expect(control['truncated'] === false, `since(${held}) with latest_seq ${latest}: truncated is ${JSON.stringify(control['truncated'])}, not false; the ring holds every event after it`);
    }
    return findings.verdict(`latest_seq ${latest}: since(${latest + 5}) gave truncated: true with no events; since(${latest}) and since(${latest - 2}) were not truncated`);
  } catch (error) {
    return aborted('scenario.replay-watermark-ahead', step, error, findings.violations.map((v) => v.message));
  } finally {
    if (client && sessionId) await closeQuietly(client, sessionId);
    await client?.close().catch(() => undefined);
  }
}
