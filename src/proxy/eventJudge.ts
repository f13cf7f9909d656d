import { checkEventEnvelope, checkEventPayload, checkSeqStep } from '../checks/eventChecks.js';
import { serverRequestProblems } from '../checks/serverRequestChecks.js';
import { violation } from '../checks/violation.js';
import type { RpcId, WireEvent } from '../../core/index.js';
import type { FrameFinding } from './findings.js';
import { SESSION_EVENTS_SUBJECT, type JudgeContext } from './judgeContext.js';
import { dottedPathOf } from './requestShape.js';
import type { WatchedConnection } from './watchedRequests.js';

/** An event the gateway sent: its envelope, its payload against the declared event, and the session's seq order. */
export function judgeEvent(context: JudgeContext, conn: string, state: WatchedConnection, frame: Record<string, unknown>, text: string, at: number): FrameFinding[] {
  const { dialect, validators, tally } = context;
  const params = (dialect.readEvent(frame) ?? {}) as WireEvent;
  const type = typeof params.type === 'string' ? params.type : '(no type)';
  const base = { conn, subject: type, kind: 'event' as const, at, frame: text };
  const findings = tally.apply(base, 'event.envelope', checkEventEnvelope(frame, dialect), () => dialect.envelopeProblems(frame)[0]?.member ?? '(root)');
  const declared = context.options.server.event(type);
  if (declared) {
    findings.push(
      ...tally.apply(base, 'event.payload-schema', checkEventPayload(params, declared, validators), () => {
        const first = declared.payloadSchema && params.payload !== undefined ? validators.check(declared.payloadSchema, params.payload)[0] : undefined;
        return first ? dottedPathOf(first, 'payload') : 'payload';
      }),
    );
  } else if (typeof params.type === 'string') {
    context.unjudged.undeclaredEvents.set(type, (context.unjudged.undeclaredEvents.get(type) ?? 0) + 1);
  }
  const session = params.session_id;
  if (typeof session === 'string' && session !== '' && typeof params.seq === 'number') {
    state.liveSessions.add(session);
    const last = state.lastEvent.get(session);
    const violations = checkSeqStep(last, params, state.createdHere);
    findings.push(...tally.apply({ ...base, subject: SESSION_EVENTS_SUBJECT }, 'event.seq-monotonic', violations, 'params.seq'));
    state.lastEvent.set(session, params);
  }
  return findings;
}

/** A request the gateway sent the client: declared by the server contract, its envelope and params as declared. */
export function judgeServerRequest(context: JudgeContext, conn: string, state: WatchedConnection, frame: Record<string, unknown>, method: string, text: string, at: number): FrameFinding[] {
  const { server } = context.options;
  const { validators } = context;
  const declared = server.serverRequests.find((request) => request.name === method);
  const id = frame['id'] as RpcId;
  state.serverPending.add({ method, declared, id, params: frame['params'], text, at });
  const base = { conn, subject: method, kind: 'server-request' as const, at, frame: text };
  const problems = declared
    ? serverRequestProblems(frame, { request: declared, validators }, state.liveSessions)
    : [`the server contract (${server.title} ${server.version}) declares no server request ${method}`];
  const path = (): string => {
    if (!declared) return 'method';
    const first = validators.check(declared.paramsSchema, frame['params'])[0];
    return first ? dottedPathOf(first, 'params') : typeof frame['id'] !== 'string' ? 'id' : 'params.session_id';
  };
  return context.tally.apply(base, 'server-request.envelope', problems.map((problem) => violation('server-request.envelope', `${method}: ${problem}`, id)), path);
}
