import { isJsonObject, type WireEvent } from '../../core/index.js';
import { notificationProblems, type EnvelopeProblem, type WireDialect } from '../../core/wireDialect.js';

/** The first frame of every Hermes connection (`{"type":"gateway.ready","payload":{…}}`, no session). */
export const READY_EVENT = 'gateway.ready';

/**
 * The Hermes event notification: `{"jsonrpc":"2.0","method":"event","params":{type, session_id, payload?, seq?}}`,
 * with a per-session `seq` from 1 on session events (spec §1.4); `gateway.ready` opens each connection.
 */
export const HERMES_DIALECT: WireDialect = {
  name: 'hermes',
  readyEvent: READY_EVENT,
  claims: (frame) => frame['method'] === 'event' && !('id' in frame),
  readEvent(frame) {
    if (frame['method'] !== 'event' || 'id' in frame || !isJsonObject(frame['params'])) return undefined;
    return frame['params'] as unknown as WireEvent;
  },
  envelopeProblems(frame) {
    const problems: EnvelopeProblem[] = notificationProblems(frame);
    const params = isJsonObject(frame['params']) ? frame['params'] : undefined;
    if (frame['method'] !== 'event') problems.push({ member: 'method', message: `method is ${JSON.stringify(frame['method'])}, not "event"` });
    if (typeof params?.['type'] !== 'string') problems.push({ member: 'params.type', message: 'params.type is not a string' });
    const isReady = params?.['type'] === READY_EVENT;
    const session = params?.['session_id'];
    const seq = params?.['seq'];
    if (!isReady && typeof session !== 'string') problems.push({ member: 'params.session_id', message: 'params.session_id is not a string' });
    if (typeof session === 'string' && session !== '' && !(Number.isInteger(seq) && (seq as number) >= 1)) {
      problems.push({ member: 'params.seq', message: `session event without an integer seq ≥ 1 (seq ${JSON.stringify(seq)})` });
    }
    if (isReady && (seq !== undefined || (session ?? '') !== '')) problems.push({ member: 'params', message: `${READY_EVENT} carries a session_id or seq` });
    return problems;
  },
};
