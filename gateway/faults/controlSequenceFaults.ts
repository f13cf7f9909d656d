import type { FrameInterceptor } from '../core/outboundFunnel.js';
import { isPlainObject, onRequests, onResponses, onResults, reframed } from './frameRewrites.js';
import type { FaultSeams, GatewayFault } from './faultTypes.js';
import { admitted, liveIds, sessionIdOf, turnWatch } from './sequenceFaults.js';

/**
 * Sequence faults of the session controls and readouts (undo, interrupt, redirect, reset, the live and recent
 * listings, the branch variants): like those of sequenceFaults.ts, every answer is schema-valid on its own and only
 * the state it claims, read back later in the sequence, shows the lie.
 */

const CHECK = 'stateful.model';

const offAll = (offs: Array<() => void>) => () => offs.forEach((off) => off());

/** session.undo of a session with a completed turn answers removed: 2 and removes nothing. */
function undoForgotten(seams: FaultSeams): () => void {
  const valid = admitted(seams, 'session.undo');
  const turns = turnWatch();
  return offAll([
    seams.funnel.use(turns.watch),
    seams.inbound.use(
      onRequests('session.undo', (request) => {
        const id = sessionIdOf(request.params);
        if (id === undefined || !request.hasId || !valid(request.params) || (turns.completed.get(id) ?? 0) === 0 || turns.busy.has(id)) return { value: request.request };
        return { reply: { jsonrpc: '2.0', id: request.id, result: { removed: 2 } } };
      }),
    ),
  ]);
}

/** session.interrupt never reaches the agent: it answers interrupted: true whether a turn runs or not, and a running turn completes. */
function interruptIgnored(seams: FaultSeams): () => void {
  const valid = admitted(seams, 'session.interrupt');
  return seams.inbound.use(
    onRequests('session.interrupt', (request) => {
      if (!request.hasId || !valid(request.params)) return { value: request.request };
      return { reply: { jsonrpc: '2.0', id: request.id, result: { status: 'interrupted', interrupted: true } } };
    }),
  );
}

/** session.redirect of an idle session is answered rejected, but its text runs as a new turn. */
function redirectIdleRuns(seams: FaultSeams): () => void {
  const valid = admitted(seams, 'session.redirect');
  const turns = turnWatch();
  const rewritten = new Map<unknown, string>();
  const answerRejected: FrameInterceptor = onResponses('prompt.submit', (outbound) => {
    const id = outbound.frame['id'];
    const text = rewritten.get(id);
    if (text === undefined) return [outbound];
    rewritten.delete(id);
    return [reframed(outbound, { jsonrpc: '2.0', id, result: { status: 'rejected', text } })];
  });
  return offAll([
    seams.funnel.use(turns.watch),
    seams.funnel.use(answerRejected),
    seams.inbound.use(
      onRequests('session.redirect', (request) => {
        const id = sessionIdOf(request.params);
        if (id === undefined || !request.hasId || !valid(request.params) || turns.busy.has(id) || !isPlainObject(request.params)) return { value: request.request };
        const text = typeof request.params['text'] === 'string' ? request.params['text'] : '';
        rewritten.set(request.id, text);
        return { value: { ...request.request, method: 'prompt.submit', params: { session_id: id, text } } };
      }),
    ),
  ]);
}

/** session.active_list leaves out the live sessions whose transcript is still empty. */
function activeListDropsEmpty(): FrameInterceptor {
  return onResults('session.active_list', (result) => {
    const sessions = Array.isArray(result['sessions']) ? result['sessions'] : [];
    return { ...result, sessions: sessions.filter((entry) => !isPlainObject(entry) || entry['message_count'] !== 0) };
  });
}

/** session.most_recent answers session_id null when the newest row has no title (an untitled row is taken for no row). */
function mostRecentSkipsUntitled(): FrameInterceptor {
  return onResults('session.most_recent', (result) => (typeof result['session_id'] === 'string' && !result['title'] ? { session_id: null } : result));
}

const READOUTS = ['session.status', 'session.context_breakdown', 'terminal.resize'] as const;

/** session.status, context_breakdown and terminal.resize of a closed runtime id are answered from the newest live session. */
function closedSessionReadable(seams: FaultSeams): () => void {
  const live = liveIds();
  const closed = new Set<string>();
  const watchClose = onResults('session.close', (result, outbound) => {
    const id = sessionIdOf(outbound.params);
    if (result['closed'] === true && id !== undefined) closed.add(id);
    return result;
  });
  const redirect = (method: string) => {
    const valid = admitted(seams, method);
    return onRequests(method, (request) => {
      const asked = sessionIdOf(request.params);
      const other = live.ids[live.ids.length - 1];
      if (asked === undefined || !closed.has(asked) || other === undefined || !valid(request.params) || !isPlainObject(request.params)) return { value: request.request };
      return { value: { ...request.request, params: { ...request.params, session_id: other } } };
    });
  };
  return offAll([seams.funnel.use(live.watch), seams.funnel.use(watchClose), ...READOUTS.map((method) => seams.inbound.use(redirect(method)))]);
}

/** session.branch_whole and session.branch_stored report a message_count two short for a parent with two or more turns. */
function branchCountShort(): FrameInterceptor {
  const short = onResults('session.branch_whole', (result) => (typeof result['message_count'] === 'number' && result['message_count'] >= 4 ? { ...result, message_count: result['message_count'] - 2 } : result));
  const shortStored = onResults('session.branch_stored', (result) => (typeof result['message_count'] === 'number' && result['message_count'] >= 4 ? { ...result, message_count: result['message_count'] - 2 } : result));
  return (outbound, connection) => short(outbound, connection).flatMap((frame) => shortStored(frame, connection));
}

/** session.reset answers reset: true without reaching the session: no hook fires and the transcript stays. */
function resetIgnored(seams: FaultSeams): () => void {
  const valid = admitted(seams, 'session.reset');
  return seams.inbound.use(
    onRequests('session.reset', (request) => {
      if (!request.hasId || !valid(request.params)) return { value: request.request };
      return { reply: { jsonrpc: '2.0', id: request.id, result: { reset: true } } };
    }),
  );
}

export const CONTROL_SEQUENCE_FAULTS: readonly GatewayFault[] = [
  { name: 'sequence.undo-forgotten', breaks: 'session.undo of a session with a completed turn answers removed: 2 but the transcript keeps the turn', check: CHECK, install: undoForgotten },
  { name: 'sequence.interrupt-ignored', breaks: 'session.interrupt answers interrupted: true without reaching the agent: an idle session claims a stopped turn, a running turn completes', check: CHECK, install: interruptIgnored },
  { name: 'sequence.redirect-idle-runs', breaks: 'session.redirect of an idle session is answered rejected, but its text runs as a new turn', check: CHECK, install: redirectIdleRuns },
  { name: 'sequence.active-list-drops-empty', breaks: 'session.active_list leaves out the live sessions whose transcript is still empty', check: CHECK, install: (seams) => seams.funnel.use(activeListDropsEmpty()) },
  { name: 'sequence.most-recent-skips-untitled', breaks: 'session.most_recent answers session_id null when the newest row has no title, as if no row were listable', check: CHECK, install: (seams) => seams.funnel.use(mostRecentSkipsUntitled()) },
  { name: 'sequence.closed-session-readable', breaks: 'session.status, session.context_breakdown and terminal.resize of a closed runtime id answer for the newest live session instead of 4001', check: CHECK, install: closedSessionReadable },
  { name: 'sequence.branch-count-short', breaks: 'session.branch_whole and session.branch_stored report a message_count two short for a parent with two or more turns', check: CHECK, install: (seams) => seams.funnel.use(branchCountShort()) },
  { name: 'sequence.reset-ignored', breaks: 'session.reset answers reset: true without reaching the session: no session_reset hook, and the transcript keeps its turns', check: CHECK, install: resetIgnored },
];
