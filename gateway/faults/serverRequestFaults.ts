import { onResults, reframed } from './frameRewrites.js';
import type { FaultSeams, GatewayFault } from './faultTypes.js';

const CANDIDATES: readonly unknown[] = [12345, 'x', true, null, {}, []];

/** The request's params with one member changed to a value its schema rejects: the first param after session_id. */
function broken(seams: FaultSeams, method: string, params: Record<string, unknown>): Record<string, unknown> {
  const contract = seams.contracts.serverRequests.get(method);
  const slots = contract?.shape === 'whole-object' ? [] : (contract?.params ?? []);
  for (const descriptor of [...slots.filter((slot) => slot.name !== 'session_id'), ...slots.filter((slot) => slot.name === 'session_id')]) {
    const rejected = CANDIDATES.find((candidate) => seams.validators.check(descriptor.schema, candidate) !== undefined);
    if (rejected !== undefined) return { ...params, [descriptor.name]: rejected };
  }
  return { ...params, session_id: 12345 };
}

/** The three results that carry `open_requests`. */
const OPEN_REQUEST_METHODS = ['session.resume', 'session.activate', 'session.events.since'];

/** Server→client requests wrong in one way each. */
export const SERVER_REQUEST_FAULTS: readonly GatewayFault[] = [
  {
    name: 'server-request.invalid-params',
    breaks: 'server→client request frames carry a param its schema rejects (the first one after session_id, e.g. approval.request_id as a number)',
    check: 'server-request.envelope',
    install: (seams) =>
      seams.funnel.use((outbound) => {
        const params = outbound.frame['params'];
        if (outbound.kind !== 'request' || outbound.method === undefined || typeof params !== 'object' || params === null) return [outbound];
        return [reframed(outbound, { ...outbound.frame, params: broken(seams, outbound.method, params as Record<string, unknown>) })];
      }),
  },
  {
    name: 'server-request.never-cancels',
    breaks: 'an unanswered server request is never withdrawn: no request.cancel on timeout, interrupt, close or shutdown (the turn still goes on)',
    check: 'server-request.cancel',
    install: (seams) => seams.gateEvents((type) => (type === 'request.cancel' ? 'suppress' : 'emit')),
  },
  {
    name: 'server-request.forgets-open-on-resume',
    breaks: 'session.resume, session.activate and session.events.since answer open_requests: [] while a server request is open',
    check: 'server-request.open-on-resume',
    install: (seams) => {
      const offs = OPEN_REQUEST_METHODS.map((method) =>
        seams.funnel.use(onResults(method, (result) => (Array.isArray(result['open_requests']) && result['open_requests'].length > 0 ? { ...result, open_requests: [] } : result))),
      );
      return () => offs.forEach((off) => off());
    },
  },
  {
    name: 'server-request.answer-ignored',
    breaks: 'a valid answer to a server request is accepted (the request is closed, never cancelled) but the turn that asked never finishes',
    check: 'server-request.answer-accepted',
    install: (seams) =>
      seams.gateAnswers((request, outcome) => {
        const result = seams.contracts.serverRequests.get(request.method)?.result;
        const valid = outcome.kind === 'answered' && (result === undefined || seams.validators.check(result, outcome.result) === undefined);
        return valid ? 'swallow' : 'deliver';
      }),
  },
];
