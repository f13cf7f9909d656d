import { canonicalJson, type WireEvent, isJsonObject, type JsonValue } from '../../../core/index.js';
import { plus, requires } from '../../../src/run/requirements.js';

export interface ReplayJudgeInput {
  sessionId: string;
  /** The watermark sent as `last_seen`. */
  lastSeen: number;
  /** The raw `session.events.since` result. */
  result: unknown;
  /**
   * Events of the session that some connection received live before the result arrived: what the gateway
   * stamped. The replay is judged against them, never against an assumed numbering.
   */
  stamped: readonly WireEvent[];
  /**
   * Events of the session received before the request was sent, when the caller tells them apart: surely stamped
   * before the answer. `stamped` is read once the answer is in, so it may hold events the gateway stamped just after
   * answering (they arrive in the same read as the answer): `latest_seq` and the replay's completeness are judged
   * against these. Default: `stamped`.
   */
  stampedBeforeRequest?: readonly WireEvent[];
  /**
   * The session was bound to an observed connection when the answer was sent, so every seq stamped before the
   * answer is in `stamped` (or in an unobserved window below its highest seq): a higher replayed seq was never stamped.
   */
  observedThroughAnswer?: boolean;
}

/** A lying latest_seq must not make the judge walk billions of seqs. */
const MAX_JUDGED_SEQS = 100_000;
const MAX_GAP_MESSAGES = 5;

const isInt = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

const show = (event: WireEvent | Record<string, unknown>): string => `${String(event['type'])} ${JSON.stringify(event['payload'] ?? null).slice(0, 80)}`;

/** What identifies an event besides its seq: newer gateways add keys to live params (turn, replay_epoch) that a replay may lack. */
const identity = (event: Record<string, unknown>): string => canonicalJson({ type: (event['type'] ?? null) as JsonValue, session_id: (event['session_id'] ?? null) as JsonValue, payload: (event['payload'] ?? null) as JsonValue });

/** Same type, session and payload (the seq is compared separately). */
export function sameEvent(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return identity(a) === identity(b);
}

/** The first event seen for each seq among `events`. */
export function stampedBySeq(events: readonly WireEvent[]): Map<number, WireEvent> {
  const bySeq = new Map<number, WireEvent>();
  for (const event of events) if (isInt(event.seq) && !bySeq.has(event.seq)) bySeq.set(event.seq, event);
  return bySeq;
}

/**
 * Judges one `session.events.since` answer for a watermark that is still retained: exactly the events stamped
 * after `lastSeen`, in order, once each, with no gap, as stamped, `count == events.length` and `latest_seq` equal
 * to the last replayed seq. Returns one message per broken rule (empty when the replay is exact).
 */
export function judgeReplay(input: ReplayJudgeInput): string[] {
  const { sessionId, lastSeen, result } = input;
  const problems: string[] = [];
  if (!isJsonObject(result)) return [`session.events.since answered ${JSON.stringify(result)?.slice(0, 120)}, not an object`];
  const events = result['events'];
  const latest = result['latest_seq'];
  if (!Array.isArray(events)) problems.push('session.events.since result has no events array');
  if (!isInt(latest)) problems.push(`latest_seq is ${JSON.stringify(latest)}, not an integer`);
  if (typeof result['truncated'] !== 'boolean') problems.push(`truncated is ${JSON.stringify(result['truncated'])}, not a boolean`);
  if (!isInt(result['count'])) problems.push(`count is ${JSON.stringify(result['count'])}, not an integer`);
  if (!Array.isArray(events) || !isInt(latest)) return problems;
  if (result['truncated'] === true) problems.push(`truncated: true for watermark ${lastSeen}, which the gateway still retains (latest_seq ${latest})`);
  if (isInt(result['count']) && result['count'] !== events.length) problems.push(`count is ${result['count']} but ${events.length} events were replayed`);

  const stamped = stampedBySeq(input.stamped);
  const replayed = new Map<number, Record<string, unknown>>();
  let previous = lastSeen;
  for (const [index, element] of events.entries()) {
    if (!isJsonObject(element) || typeof element['type'] !== 'string') {
      problems.push(`events[${index}] is not an event params object with a type: ${JSON.stringify(element).slice(0, 120)}`);
      continue;
    }
    const seq = element['seq'];
    if (!isInt(seq)) {
      problems.push(`events[${index}] (${show(element)}) has no integer seq`);
      continue;
    }
    if (element['session_id'] !== sessionId) problems.push(`seq ${seq} belongs to session ${JSON.stringify(element['session_id'])}, not ${sessionId}`);
    if (replayed.has(seq)) problems.push(`duplicate: seq ${seq} (${show(element)}) is replayed twice`);
    else if (seq <= lastSeen) problems.push(`seq ${seq} (${show(element)}) is at or below the watermark ${lastSeen}: the client already had it`);
    else if (seq < previous) problems.push(`out of order: seq ${seq} is replayed after seq ${previous}`);
    if (!replayed.has(seq)) replayed.set(seq, element);
    previous = Math.max(previous, seq);
    const original = stamped.get(seq);
    if (original && !sameEvent(original, element)) problems.push(`seq ${seq} is replayed as ${show(element)} but was stamped as ${show(original)}`);
  }

  const lastReplayed = events.length > 0 ? (events[events.length - 1] as Record<string, unknown>)['seq'] : undefined;
  if (isInt(lastReplayed) && lastReplayed !== latest) problems.push(`latest_seq is ${latest} but the last replayed event has seq ${lastReplayed}`);
  if (events.length === 0 && latest !== lastSeen && latest > lastSeen) problems.push(`latest_seq is ${latest} but nothing after ${lastSeen} was replayed`);
  const highestStamped = Math.max(0, ...stamped.keys());
  const surelyBefore = input.stampedBeforeRequest ? Math.max(0, ...stampedBySeq(input.stampedBeforeRequest).keys()) : highestStamped;
  if (latest < surelyBefore) problems.push(`latest_seq is ${latest}, below seq ${surelyBefore} that the gateway had already stamped`);
  for (const seq of replayed.keys()) {
    if (seq > latest) problems.push(`seq ${seq} is beyond latest_seq ${latest}: the gateway never stamped it`);
    else if (input.observedThroughAnswer && seq > highestStamped) problems.push(`seq ${seq} was never stamped: the highest seq the gateway sent before answering is ${highestStamped}`);
  }
  const missing: number[] = [];
  const end = Math.min(Math.max(latest, surelyBefore), lastSeen + MAX_JUDGED_SEQS);
  for (let seq = lastSeen + 1; seq <= end; seq++) if (!replayed.has(seq)) missing.push(seq);
  for (const seq of missing.slice(0, MAX_GAP_MESSAGES)) {
    const original = stamped.get(seq);
    problems.push(original ? `gap: seq ${seq} (${show(original)}, observed live) is missing from the replay` : `gap: seq ${seq} is missing from the replay`);
  }
  if (missing.length > MAX_GAP_MESSAGES) problems.push(`gap: ${missing.length - MAX_GAP_MESSAGES} more seqs up to ${missing[missing.length - 1]} are missing from the replay`);
  return problems;
}

/**
 * Judges what the replaying client delivered for one session: every seq from the first delivered to `upTo`, once,
 * in order.
 */
export function judgeDelivery(delivered: readonly WireEvent[], sessionId: string, upTo: number): string[] {
  const seqs = delivered.filter((event) => event.session_id === sessionId && isInt(event.seq)).map((event) => event.seq as number);
  const problems: string[] = [];
  const seen = new Set<number>();
  let previous = 0;
  for (const seq of seqs) {
    if (seen.has(seq)) problems.push(`the client delivered seq ${seq} twice`);
    else if (seq < previous) problems.push(`the client delivered seq ${seq} after seq ${previous}`);
    seen.add(seq);
    previous = Math.max(previous, seq);
  }
  const first = seqs[0] ?? 1;
  for (let seq = first; seq <= upTo; seq++) if (!seen.has(seq)) problems.push(`the client never delivered seq ${seq}`);
  return problems;
}

/** Replay needs a turn that stamps seq-numbered events and the replay method; the drops re-attach, stats counts. */
const TURNS = requires(['session.create', 'prompt.submit', 'session.events.since'], { events: ['message.delta'] });
export const REPLAY_REQUIREMENTS = {
  turns: TURNS,
  drop: plus(TURNS, { methods: ['session.activate'] }),
  stats: plus(TURNS, { methods: ['session.events.stats'] }),
} as const;
