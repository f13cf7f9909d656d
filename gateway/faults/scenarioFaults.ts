import { basename, join } from 'node:path';
import { GATEWAY_CONTRACTS_DIR } from '../packageRoot.js';
import { compiledContracts } from '../core/contract/compiledContracts.js';
import type { InboundInterceptor } from '../core/inboundGate.js';
import { ParamsAdmission } from '../core/paramsAdmission.js';
import { ErrorCode } from '../core/wireErrors.js';
import { errorCode, errorReply, isPlainObject, onRequests, onResponses, onResults, reframed } from './frameRewrites.js';
import type { FaultSeams, GatewayFault } from './faultTypes.js';

const HERMES_DIR = GATEWAY_CONTRACTS_DIR;

/**
 * The Hermes document from before `cwd_explicit` that matches the served one: what an older backend validates
 * `session.create` against (the full document's own older twin when the full document is served).
 */
function preCwdExplicitDocument(seams: FaultSeams): string {
  const servesFull = seams.contracts.documents.some((document) => basename(document.path) === 'gateway.openrpc.json');
  return join(HERMES_DIR, servesFull ? 'gateway.pre-cwd-explicit.openrpc.json' : 'session-lifecycle.pre-cwd-explicit.openrpc.json');
}

/**
 * `session.create` as an older backend admits it while the gateway keeps serving (and claiming) the current
 * contract: keys the older document does not declare are rejected with its 4000. With `dropsCwd`, a create
 * without `cwd_explicit` also loses its `cwd` (the session opens in the gateway's data directory).
 */
function olderBackendCreate(seams: FaultSeams, dropsCwd: boolean): InboundInterceptor {
  const older = compiledContracts([preCwdExplicitDocument(seams)], seams.log);
  const method = older.contracts.methods.get('session.create');
  const admission = new ParamsAdmission(older.contracts, older.validators, seams.legacyMessages);
  return onRequests('session.create', (request) => {
    const admitted = method ? admission.admit(method, request.params) : undefined;
    if (admitted && !admitted.ok && admitted.error.code === ErrorCode.INVALID_PARAMS_HERMES) return errorReply(request, admitted.error.code, admitted.error.message);
    if (!dropsCwd || !isPlainObject(request.params) || 'cwd_explicit' in request.params) return { value: request.request };
    const { cwd: _lost, ...params } = request.params;
    return { value: { ...request.request, params } };
  });
}

/** Whether the gateway's own params admission accepts `params` for `method`: faults that act on valid requests only. */
function ownAdmission(seams: FaultSeams, name: string): (params: unknown) => boolean {
  const admission = new ParamsAdmission(seams.contracts, seams.validators, seams.legacyMessages);
  const method = seams.contracts.methods.get(name);
  return (params) => method !== undefined && admission.admit(method, params).ok;
}

/** Refuses, after the gateway's own admission passed, a create that carries cwd but not cwd_explicit. */
function flagRequiredWithCwd(seams: FaultSeams): InboundInterceptor {
  const admitted = ownAdmission(seams, 'session.create');
  return onRequests('session.create', (request) => {
    const params = request.params;
    if (!isPlainObject(params) || !('cwd' in params) || 'cwd_explicit' in params || !admitted(params)) return { value: request.request };
    return errorReply(request, ErrorCode.INVALID_PARAMS, 'invalid params for session.create: cwd_explicit: Field required');
  });
}

export const SCENARIO_FAULTS: readonly GatewayFault[] = [
  {
    name: 'lifecycle.delete-live-succeeds',
    breaks: 'session.delete of a stored id whose session is live reports success instead of 4023',
    check: 'scenario.lifecycle-delete-live',
    install: (seams) =>
      seams.funnel.use(
        onResponses('session.delete', (outbound) => {
          if (errorCode(outbound.frame) !== ErrorCode.DELETE_ACTIVE) return [outbound];
          const deleted = isPlainObject(outbound.params) ? outbound.params['session_id'] : undefined;
          const { error: _refusal, ...rest } = outbound.frame;
          return [reframed(outbound, { ...rest, result: { deleted } })];
        }),
      ),
  },
  {
    name: 'lifecycle.resume-loses-history',
    breaks: 'session.resume of a stored session answers without its history (messages [], message_count 0)',
    check: 'scenario.lifecycle-close-resume',
    install: (seams) =>
      seams.funnel.use(onResults('session.resume', (result) => (Array.isArray(result['messages']) && result['messages'].length > 0 ? { ...result, messages: [], message_count: 0 } : result))),
  },
  {
    name: 'topology.bare-create-refused',
    breaks: 'a bare session.create (no params, or {}) is refused with 4016 "cwd required"',
    check: 'scenario.topology-local',
    install: (seams) =>
      seams.inbound.use(
        onRequests('session.create', (request) => {
          const bare = request.params === undefined || request.params === null || (isPlainObject(request.params) && Object.keys(request.params).length === 0);
          return bare ? errorReply(request, ErrorCode.CWD_REQUIRED, 'cwd required') : { value: request.request };
        }),
      ),
  },
  {
    name: 'topology.remote-cwd-ignored',
    breaks: 'session.create with cwd and cwd_explicit: true opens the session in the data directory, not in the sent cwd',
    check: 'scenario.topology-remote',
    install: (seams) => {
      const admitted = ownAdmission(seams, 'session.create');
      return seams.inbound.use(
        onRequests('session.create', (request) => {
          if (!isPlainObject(request.params) || request.params['cwd_explicit'] !== true || !admitted(request.params)) return { value: request.request };
          const { cwd: _ignored, ...params } = request.params;
          return { value: { ...request.request, params } };
        }),
      );
    },
  },
  {
    name: 'topology.older-backend',
    breaks: 'session.create rejects cwd_explicit (4000) as a backend from before it existed would, while the gateway claims the current contract',
    check: 'skew.predicted-observed',
    install: (seams) => seams.inbound.use(olderBackendCreate(seams, false)),
  },
  {
    name: 'topology.older-backend-drops-cwd',
    breaks: 'an older backend (cwd_explicit rejected) that also ignores cwd when cwd_explicit is absent, so the tolerant resend loses the workspace',
    check: 'scenario.tolerant-client',
    install: (seams) => seams.inbound.use(olderBackendCreate(seams, true)),
  },
  {
    name: 'skew.cwd-without-flag-refused',
    breaks: 'a session.create that sends cwd without cwd_explicit is refused with -32602, although the contract makes the flag optional (clients that leave it out break)',
    check: 'skew.client-contract',
    install: (seams) => seams.inbound.use(flagRequiredWithCwd(seams)),
  },
  {
    name: 'topology.browser-origin-refused',
    breaks: 'a WebSocket opened from a browser page (Origin header) is closed with 4403 right after the upgrade',
    check: 'scenario.browser-remote-lane',
    install: (seams) =>
      seams.funnel.use((outbound, connection) => {
        if (outbound.kind !== 'ready' || connection.link.origin === undefined) return [outbound];
        connection.link.close(4403, 'origin not allowed');
        return [];
      }),
  },
];
