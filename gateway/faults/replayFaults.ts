import type { GatewayConnection } from '../core/gatewayConnection.js';
import type { FrameInterceptor, OutboundFrame } from '../core/outboundFunnel.js';
import { type Frame, isPlainObject, onResponses, onResults, reframed } from './frameRewrites.js';
import type { GatewayFault } from './faultTypes.js';

const SINCE = 'session.events.since';

interface SinceAnswer {
  readonly result: Frame;
  readonly events: Frame[];
  readonly lastSeen: number;
  readonly latest: number;
}

function sinceAnswer(result: Frame, outbound: OutboundFrame): SinceAnswer | undefined {
  const events = result['events'];
  const latest = result['latest_seq'];
  if (!Array.isArray(events) || typeof latest !== 'number') return undefined;
  const lastSeen = isPlainObject(outbound.params) && typeof outbound.params['last_seen'] === 'number' ? outbound.params['last_seen'] : 0;
  return { result, events: events.filter(isPlainObject), lastSeen, latest };
}

/** Rewrites `session.events.since` results for a watermark the ring still holds (not truncated). */
function onExactReplays(change: (answer: SinceAnswer) => Frame): FrameInterceptor {
  return onResults(SINCE, (result, outbound) => {
    const answer = sinceAnswer(result, outbound);
    return answer && result['truncated'] === false ? change(answer) : result;
  });
}

const withEvents = (answer: SinceAnswer, events: Frame[], extra: Frame = {}): Frame => ({ ...answer.result, events, count: events.length, ...extra });

const STREAMING = new Set(['message.start', 'tool.start', 'tool.complete', 'message.delta']);

/** Without the trailing events of a turn that has not completed yet (those the ring would only get on commit). */
function committedOnly(events: Frame[]): Frame[] {
  let end = events.length;
  while (end > 0 && STREAMING.has(String(events[end - 1]?.['type']))) end--;
  return events.slice(0, end);
}

/** Sessions whose events reached a connection that later dropped abnormally (1006) lose their ring. */
function ringLostOnAbnormalDrop(): FrameInterceptor {
  const receivers = new Map<string, Set<GatewayConnection>>();
  const dropped = (session: string): boolean => [...(receivers.get(session) ?? [])].some((connection) => connection.closedWith?.code === 1006);
  return (outbound, connection) => {
    if (outbound.kind === 'event' && outbound.sessionId) {
      const set = receivers.get(outbound.sessionId) ?? new Set();
      set.add(connection);
      receivers.set(outbound.sessionId, set);
      return [outbound];
    }
    const result = outbound.frame['result'];
    const session = isPlainObject(outbound.params) ? outbound.params['session_id'] : undefined;
    if (outbound.kind !== 'response' || outbound.method !== SINCE || !isPlainObject(result) || typeof session !== 'string' || !dropped(session)) return [outbound];
    return [reframed(outbound, { ...outbound.frame, result: { ...result, events: [], count: 0, truncated: true } })];
  };
}

export const REPLAY_FAULTS: readonly GatewayFault[] = [
  {
    name: 'replay.since-drops-event',
    breaks: 'session.events.since leaves out the first missed event',
    check: 'scenario.replay-clean-close',
    install: (seams) => seams.funnel.use(onExactReplays((answer) => withEvents(answer, answer.events.slice(1)))),
  },
  {
    name: 'replay.since-duplicates-event',
    breaks: 'session.events.since returns the first missed event twice',
    check: 'scenario.replay-clean-close',
    install: (seams) => seams.funnel.use(onExactReplays((answer) => withEvents(answer, answer.events.length > 0 ? [answer.events[0] as Frame, ...answer.events] : []))),
  },
  {
    name: 'replay.since-reorders-events',
    breaks: 'session.events.since returns the first two missed events swapped',
    check: 'scenario.replay-clean-close',
    install: (seams) =>
      seams.funnel.use(
        onExactReplays((answer) => {
          const [first, second, ...rest] = answer.events;
          return first && second ? withEvents(answer, [second, first, ...rest]) : answer.result;
        }),
      ),
  },
  {
    name: 'replay.since-wrong-latest-seq',
    breaks: 'session.events.since reports latest_seq one higher than the last event',
    check: 'scenario.replay-clean-close',
    install: (seams) => seams.funnel.use(onExactReplays((answer) => ({ ...answer.result, latest_seq: answer.latest + 1 }))),
  },
  {
    name: 'replay.inflight-turn-missing',
    breaks: "session.events.since leaves out the events of a turn still streaming (the ring gets a turn's events only when it completes)",
    check: 'scenario.replay-mid-stream',
    install: (seams) =>
      seams.funnel.use(
        onExactReplays((answer) => {
          const kept = committedOnly(answer.events);
          if (kept.length === answer.events.length) return answer.result;
          const last = kept[kept.length - 1]?.['seq'];
          return withEvents(answer, kept, { latest_seq: typeof last === 'number' ? last : answer.lastSeen });
        }),
      ),
  },
  {
    name: 'replay.ring-lost-on-abnormal-drop',
    breaks: 'after an abnormal drop (1006) of a connection that received its events, a session answers events.since with truncated: true and nothing',
    check: 'scenario.replay-abnormal-drop',
    install: (seams) => seams.funnel.use(ringLostOnAbnormalDrop()),
  },
  {
    name: 'replay.overflow-not-truncated',
    breaks: 'truncated is false for a watermark whose successors were evicted from the ring',
    check: 'scenario.replay-overflow',
    install: (seams) =>
      seams.funnel.use(
        onResults(SINCE, (result, outbound) => {
          const answer = sinceAnswer(result, outbound);
          return answer && result['truncated'] === true && answer.lastSeen <= answer.latest ? { ...result, truncated: false } : result;
        }),
      ),
  },
  {
    name: 'replay.ahead-not-truncated',
    breaks: 'truncated is false for a watermark greater than latest_seq',
    check: 'scenario.replay-watermark-ahead',
    install: (seams) =>
      seams.funnel.use(
        onResults(SINCE, (result, outbound) => {
          const answer = sinceAnswer(result, outbound);
          return answer && answer.lastSeen > answer.latest ? { ...result, truncated: false } : result;
        }),
      ),
  },
  {
    name: 'replay.ready-without-epoch',
    breaks: 'gateway.ready carries no replay_epoch',
    check: 'scenario.replay-epoch',
    install: (seams) =>
      seams.funnel.use((outbound) => {
        const params = outbound.frame['params'];
        if (outbound.kind !== 'ready' || !isPlainObject(params) || !isPlainObject(params['payload'])) return [outbound];
        const { replay_epoch: _dropped, ...payload } = params['payload'];
        return [reframed(outbound, { ...outbound.frame, params: { ...params, payload } })];
      }),
  },
  {
    name: 'replay.stats-miscount',
    breaks: "session.events.stats leaves the first event of every ring out of its events count",
    check: 'scenario.replay-stats',
    install: (seams) =>
      seams.funnel.use(
        onResponses('session.events.stats', (outbound) => {
          const result = outbound.frame['result'];
          if (!isPlainObject(result) || typeof result['events'] !== 'number' || typeof result['sessions'] !== 'number') return [outbound];
          return [reframed(outbound, { ...outbound.frame, result: { ...result, events: Math.max(0, result['events'] - result['sessions']) } })];
        }),
      ),
  },
];
