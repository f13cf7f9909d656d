import type { GatewayConnection } from '../core/gatewayConnection.js';
import type { FrameInterceptor, OutboundFrame } from '../core/outboundFunnel.js';
import { ParamsAdmission } from '../core/paramsAdmission.js';
import { type Frame, isPlainObject, onRequests, onResponses, onResults, reframed } from './frameRewrites.js';
import type { FaultSeams, GatewayFault } from './faultTypes.js';

/**
 * Faults that no single call shows: each answer is well-formed and schema-valid on its own, and only a sequence
 * (a resume after a turn, a list after a second turn, two prompts at once, …) reveals that the state is wrong.
 * Their state lives in the closures `install` creates, fed by the frames that pass the seams.
 */

const CHECK = 'stateful.model';

/** Whether the gateway's own admission accepts `params` for `method`: these faults act on valid requests only. */
export function admitted(seams: FaultSeams, name: string): (params: unknown) => boolean {
  const admission = new ParamsAdmission(seams.contracts, seams.validators, seams.legacyMessages);
  const method = seams.contracts.methods.get(name);
  return (params) => method !== undefined && admission.admit(method, params).ok;
}

export const sessionIdOf = (params: unknown): string | undefined => (isPlainObject(params) && typeof params['session_id'] === 'string' ? params['session_id'] : undefined);

/** Runtime ids handed out by create, resume and branch replies, and forgotten when a close answers closed: true. */
export function liveIds(): { readonly ids: string[]; readonly watch: FrameInterceptor } {
  const ids: string[] = [];
  const watch: FrameInterceptor = (outbound) => {
    const result = outbound.frame['result'];
    if (outbound.kind !== 'response' || !isPlainObject(result)) return [outbound];
    if (outbound.method === 'session.close' && result['closed'] === true) {
      const closed = sessionIdOf(outbound.params);
      const index = closed === undefined ? -1 : ids.indexOf(closed);
      if (index >= 0) ids.splice(index, 1);
    } else if (['session.create', 'session.resume', 'session.branch', 'session.branch_stored', 'session.branch_whole'].includes(outbound.method ?? '') && typeof result['session_id'] === 'string') {
      if (!ids.includes(result['session_id'])) ids.push(result['session_id']);
    }
    return [outbound];
  };
  return { ids, watch };
}

/** Per runtime id: whether a turn is streaming (message.start seen, no message.complete yet) and how many completed. */
export function turnWatch(): { readonly busy: Set<string>; readonly completed: Map<string, number>; readonly watch: FrameInterceptor } {
  const busy = new Set<string>();
  const completed = new Map<string, number>();
  const watch: FrameInterceptor = (outbound) => {
    const params = outbound.frame['params'];
    if (outbound.kind !== 'event' || !outbound.sessionId || !isPlainObject(params)) return [outbound];
    if (params['type'] === 'message.start') busy.add(outbound.sessionId);
    if (params['type'] === 'message.complete') {
      busy.delete(outbound.sessionId);
      if (isPlainObject(params['payload']) && params['payload']['status'] === 'complete') completed.set(outbound.sessionId, (completed.get(outbound.sessionId) ?? 0) + 1);
    }
    return [outbound];
  };
  return { busy, completed, watch };
}

const USAGE_COUNTERS = ['input', 'output', 'prompt', 'completion', 'total', 'calls', 'context_used', 'context_percent'] as const;

/** session.usage of a resumed runtime id counts only what happened after its first read: the totals restart at the resume. */
function usageResetByResume(seams: FaultSeams): () => void {
  const resumed = new Set<string>();
  const baselines = new Map<string, Frame>();
  const watchResume = onResults('session.resume', (result) => {
    if (typeof result['session_id'] === 'string') resumed.add(result['session_id']);
    return result;
  });
  const reset = onResults('session.usage', (result, outbound) => {
    const id = sessionIdOf(outbound.params);
    if (id === undefined || !resumed.has(id)) return result;
    const baseline = baselines.get(id) ?? result;
    baselines.set(id, baseline);
    const out = { ...result };
    for (const key of USAGE_COUNTERS) if (typeof result[key] === 'number' && typeof baseline[key] === 'number') out[key] = Math.max(0, result[key] - baseline[key]);
    return out;
  });
  const offs = [seams.funnel.use(watchResume), seams.funnel.use(reset)];
  return () => offs.forEach((off) => off());
}

/** session.steer is applied to the most recently opened other live session. */
function steerOtherSession(seams: FaultSeams): () => void {
  const valid = admitted(seams, 'session.steer');
  const live = liveIds();
  const offs = [
    seams.funnel.use(live.watch),
    seams.inbound.use(
      onRequests('session.steer', (request) => {
        const asked = sessionIdOf(request.params);
        const other = [...live.ids].reverse().find((id) => id !== asked);
        if (asked === undefined || other === undefined || !valid(request.params) || !isPlainObject(request.params)) return { value: request.request };
        return { value: { ...request.request, params: { ...request.params, session_id: other } } };
      }),
    ),
  ];
  return () => offs.forEach((off) => off());
}

/**
 * session.usage reports as its total only what was added since the previous usage read on the same connection,
 * whichever session that read was for: one meter per connection instead of one per session.
 */
function usageTotalIsDelta(): FrameInterceptor {
  const previous = new WeakMap<GatewayConnection, number>();
  return onResponses('session.usage', (outbound, connection) => {
    const result = outbound.frame['result'];
    if (!isPlainObject(result) || typeof result['total'] !== 'number') return [outbound];
    const before = previous.get(connection);
    previous.set(connection, result['total']);
    return before === undefined ? [outbound] : [reframed(outbound, { ...outbound.frame, result: { ...result, total: Math.max(0, result['total'] - before) } })];
  });
}

/** session.branch of a parent with two or more completed turns copies all but the last one. */
function branchDropsLastTurn(seams: FaultSeams): () => void {
  const valid = admitted(seams, 'session.branch');
  const turns = turnWatch();
  const offs = [
    seams.funnel.use(turns.watch),
    seams.inbound.use(
      onRequests('session.branch', (request) => {
        const id = sessionIdOf(request.params);
        const done = id === undefined ? 0 : (turns.completed.get(id) ?? 0);
        if (!isPlainObject(request.params) || 'count' in request.params || done < 2 || !valid(request.params)) return { value: request.request };
        return { value: { ...request.request, params: { ...request.params, count: 2 * (done - 1) } } };
      }),
    ),
  ];
  return () => offs.forEach((off) => off());
}

/**
 * session.events.since asked on a connection that never received the session's events (a client that reconnected)
 * and that has nothing to replay gets the newest events of another session the old connection was receiving.
 */
function sinceForeignAfterReconnect(seams: FaultSeams): () => void {
  const recorded = new Map<string, Frame[]>();
  const receivers = new Map<string, Set<GatewayConnection>>();
  const record: FrameInterceptor = (outbound, connection) => {
    const params = outbound.frame['params'];
    if (outbound.kind === 'event' && outbound.sessionId && isPlainObject(params)) {
      recorded.set(outbound.sessionId, [...(recorded.get(outbound.sessionId) ?? []), params].slice(-16));
      receivers.set(outbound.sessionId, (receivers.get(outbound.sessionId) ?? new Set()).add(connection));
    }
    return [outbound];
  };
  const swap = (outbound: OutboundFrame, connection: GatewayConnection): OutboundFrame[] => {
    const result = outbound.frame['result'];
    const asked = sessionIdOf(outbound.params);
    if (outbound.kind !== 'response' || outbound.method !== 'session.events.since' || !isPlainObject(result) || asked === undefined) return [outbound];
    const empty = Array.isArray(result['events']) && result['events'].length === 0 && result['truncated'] === false;
    const reconnected = recorded.has(asked) && !receivers.get(asked)?.has(connection);
    // Another session whose events went to a connection that also carried the asked session's (the one that dropped).
    const shared = receivers.get(asked) ?? new Set<GatewayConnection>();
    const other = [...recorded.keys()].reverse().find((id) => id !== asked && [...(receivers.get(id) ?? [])].some((carrier) => shared.has(carrier)));
    if (!empty || !reconnected || other === undefined) return [outbound];
    const foreign = (recorded.get(other) ?? []).slice(-2);
    return [reframed(outbound, { ...outbound.frame, result: { ...result, events: foreign, count: foreign.length } })];
  };
  const offs = [seams.funnel.use(record), seams.funnel.use(swap)];
  return () => offs.forEach((off) => off());
}

/** session.list keeps showing the message_count a row had the first time it was listed with any. */
function listCountStalls(seams: FaultSeams): FrameInterceptor {
  const firstSeen = new Map<string, number>();
  void seams;
  return onResults('session.list', (result) => {
    const sessions = result['sessions'];
    if (!Array.isArray(sessions)) return result;
    const stalled = sessions.map((entry) => {
      if (!isPlainObject(entry) || typeof entry['id'] !== 'string' || typeof entry['message_count'] !== 'number' || entry['message_count'] === 0) return entry;
      const first = firstSeen.get(entry['id']) ?? entry['message_count'];
      firstSeen.set(entry['id'], first);
      return { ...entry, message_count: Math.min(first, entry['message_count']) };
    });
    return { ...result, sessions: stalled };
  });
}

/**
 * A plain prompt.submit to a session that already has one in flight (sent, its turn not completed yet) is answered
 * "queued" and then never run.
 */
function concurrentPromptLost(seams: FaultSeams): () => void {
  const valid = admitted(seams, 'prompt.submit');
  const inFlight = new Set<string>();
  const offs = [
    seams.funnel.use((outbound) => {
      const params = outbound.frame['params'];
      if (outbound.kind === 'event' && outbound.sessionId && isPlainObject(params) && params['type'] === 'message.complete') inFlight.delete(outbound.sessionId);
      return [outbound];
    }),
    seams.inbound.use(
      onRequests('prompt.submit', (request) => {
        const id = sessionIdOf(request.params);
        const plain = isPlainObject(request.params) && !('queued' in request.params) && !('interrupted' in request.params);
        if (id === undefined || !plain || !request.hasId || !valid(request.params)) return { value: request.request };
        if (!inFlight.has(id)) {
          inFlight.add(id);
          return { value: request.request };
        }
        return { reply: { jsonrpc: '2.0', id: request.id, result: { status: 'queued' } } };
      }),
    ),
  ];
  return () => offs.forEach((off) => off());
}

export const SEQUENCE_FAULTS: readonly GatewayFault[] = [
  { name: 'sequence.usage-reset-by-resume', breaks: 'session.usage of a resumed session counts from zero again: the turns before the resume are gone from its totals', check: CHECK, install: usageResetByResume },
  { name: 'sequence.steer-other-session', breaks: 'session.steer is applied to another live session (the most recently opened one) instead of the one named', check: CHECK, install: steerOtherSession },
  { name: 'sequence.branch-drops-last-turn', breaks: "session.branch of a session with two or more turns copies all but the parent's last turn", check: CHECK, install: branchDropsLastTurn },
  { name: 'sequence.since-foreign-after-reconnect', breaks: "session.events.since from a reconnected client with nothing to replay returns the newest events of another session its old connection received", check: CHECK, install: sinceForeignAfterReconnect },
  { name: 'sequence.list-count-stalls', breaks: 'session.list keeps the message_count a row had when first listed: it stops growing with later turns', check: CHECK, install: (seams) => seams.funnel.use(listCountStalls(seams)) },
  { name: 'sequence.concurrent-prompt-lost', breaks: 'a prompt sent while another turn of the session streams is answered "queued" and never runs', check: CHECK, install: concurrentPromptLost },
  {
    name: 'sequence.usage-total-is-delta',
    breaks: 'session.usage reports as total only the tokens added since the previous usage read on the same connection, whichever session it was for (the model checks calls, not totals: only the lockstep run sees it)',
    check: 'stateful.differential',
    install: (seams) => seams.funnel.use(usageTotalIsDelta()),
  },
];
