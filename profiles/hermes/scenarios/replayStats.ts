import type { RpcClient } from '../../../src/client/rpcClient.js';
import { isJsonObject } from '../../../core/index.js';
import { aborted, Findings, type Connect, type ScenarioVerdict } from '../../../src/run/scenarioVerdict.js';
import { closeQuietly, createSession, runTurn } from './sessionDriver.js';

const STATS_FIELDS = ['sessions', 'events', 'bytes', 'max_per_session', 'max_bytes_per_session', 'max_bytes_process'] as const;
type Stats = Record<(typeof STATS_FIELDS)[number], number>;

/** Rings per process in spec §4: past it the oldest ring is evicted, which hides a new session's events in the totals. */
export const MAX_SESSION_RINGS = 64;

async function readStats(client: RpcClient, findings: Findings, when: string): Promise<Stats | undefined> {
  const raw = await client.request('session.events.stats', {});
  if (!isJsonObject(raw)) {
    findings.fail(`session.events.stats ${when} answered ${JSON.stringify(raw)?.slice(0, 120)}, not an object`);
    return undefined;
  }
  const bad = STATS_FIELDS.filter((field) => typeof raw[field] !== 'number' || !Number.isInteger(raw[field]) || (raw[field] as number) < 0);
  if (bad.length > 0) {
    findings.fail(`session.events.stats ${when}: ${bad.map((field) => `${field} = ${JSON.stringify(raw[field])}`).join(', ')} (each must be a non-negative integer)`);
    return undefined;
  }
  return raw as Stats;
}

function judgeConsistency(stats: Stats, findings: Findings, when: string): void {
  findings.expect(stats.events <= stats.sessions * stats.max_per_session, `stats ${when}: ${stats.events} events in ${stats.sessions} rings exceed max_per_session ${stats.max_per_session}`);
  findings.expect(stats.bytes <= stats.max_bytes_process, `stats ${when}: ${stats.bytes} bytes exceed max_bytes_process ${stats.max_bytes_process}`);
  findings.expect(stats.events === 0 || stats.bytes > 0, `stats ${when}: ${stats.events} events retained in 0 bytes`);
}

/**
 * `session.events.stats` against what a fresh session produced. `exact` (a gateway nobody else uses): the counts
 * rise by exactly one ring, the produced events and their compact-JSON bytes. Otherwise other clients may add
 * events meanwhile, so the counts must rise by at least that much.
 */
export async function statsVerdict(connect: Connect, options: { exact: boolean }): Promise<ScenarioVerdict> {
  const findings = new Findings('scenario.replay-stats');
  let step = 'connect';
  let client: RpcClient | undefined;
  let sessionId: string | undefined;
  try {
    client = await connect({ name: 'a' });
    step = 'session.events.stats before';
    const before = await readStats(client, findings, 'before');
    step = 'create a session and run a turn';
    sessionId = (await createSession(client, { close_on_disconnect: true })).sessionId;
    const s = sessionId;
    await runTurn(client, s, 'count me');
    const produced = client.events.all({ sessionId: s }).filter((event) => typeof event.seq === 'number');
    step = 'session.events.stats after';
    const after = await readStats(client, findings, 'after');
    if (!before || !after) return findings.verdict('');
    judgeConsistency(before, findings, 'before');
    judgeConsistency(after, findings, 'after');
    for (const limit of ['max_per_session', 'max_bytes_per_session', 'max_bytes_process'] as const) {
      findings.expect(before[limit] === after[limit], `${limit} changed from ${before[limit]} to ${after[limit]} while only events were produced`);
    }
    const delta = { sessions: after.sessions - before.sessions, events: after.events - before.events, bytes: after.bytes - before.bytes };
    const shown = `sessions +${delta.sessions}, events +${delta.events}, bytes +${delta.bytes}`;
    if (options.exact) {
      // Counted from the events as produced (what the rule is about), not from a replay, whose exactness is another check's.
      const bytes = produced.reduce((sum, event) => sum + Buffer.byteLength(JSON.stringify(event), 'utf8'), 0);
      findings.expect(delta.sessions === 1, `a fresh session added ${delta.sessions} ring(s) to stats.sessions, not 1`);
      findings.expect(delta.events === produced.length, `the session produced ${produced.length} events but stats.events rose by ${delta.events}`);
      findings.expect(delta.bytes === bytes, `the ${produced.length} produced events take ${bytes} bytes of compact JSON but stats.bytes rose by ${delta.bytes}`);
      return findings.verdict(`a fresh session produced ${produced.length} events (${bytes} bytes): ${shown}, exactly (sibling gateway nobody else uses)`);
    }
    if (before.sessions >= MAX_SESSION_RINGS) {
      findings.note(`the target already held ${before.sessions} rings: FIFO ring eviction may offset the totals, so only consistency was judged`);
      return findings.verdict(`${shown} for ${produced.length} produced events; the target's ring table was full, so only the stats' consistency was judged`);
    }
    findings.expect(delta.sessions >= 1, `a fresh session added ${delta.sessions} ring(s) to stats.sessions (at least 1 expected)`);
    findings.expect(delta.events >= produced.length, `the session produced ${produced.length} events but stats.events rose by only ${delta.events}`);
    findings.expect(delta.bytes > 0, `stats.bytes rose by ${delta.bytes} although ${produced.length} events were retained`);
    return findings.verdict(`${shown} for ${produced.length} produced events (lower bounds: other clients may share the target)`);
  } catch (error) {
    return aborted('scenario.replay-stats', step, error, findings.violations.map((v) => v.message));
  } finally {
    if (client && sessionId) await closeQuietly(client, sessionId);
    await client?.close().catch(() => undefined);
  }
}
