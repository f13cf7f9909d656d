import { ParamsAdmission } from '../core/paramsAdmission.js';
import { ErrorCode, OUT_OF_SYNC_SUFFIX } from '../core/wireErrors.js';
import { errorCode, errorReply, type Frame, isPlainObject, onRequests, onResponses, reframed } from './frameRewrites.js';
import type { FaultSeams, GatewayFault } from './faultTypes.js';

/** A string this long in any params makes the crashing method fail (the harness sends 64 KiB strings). */
const CRASHING_STRING_LENGTH = 16 * 1024;

/** The first unknown key of `params` for `method` by the gateway's own admission, as a path (closeOpenModels: open models too). */
function extraKey(seams: FaultSeams, method: string, params: unknown, closeOpenModels = false): string[] | undefined {
  const contract = seams.contracts.methods.get(method);
  if (!contract) return undefined;
  return new ParamsAdmission(seams.contracts, seams.validators, seams.legacyMessages).unknownKey(contract, params, { closeOpenModels });
}

function deleteAt(root: unknown, path: readonly string[]): void {
  let parent: unknown = root;
  for (const step of path.slice(0, -1)) parent = isPlainObject(parent) || Array.isArray(parent) ? (parent as Record<string, unknown>)[step] : undefined;
  const last = path[path.length - 1];
  if (last !== undefined && isPlainObject(parent)) delete parent[last];
}

function hasLongString(value: unknown): boolean {
  if (typeof value === 'string') return value.length >= CRASHING_STRING_LENGTH;
  if (Array.isArray(value)) return value.some(hasLongString);
  return isPlainObject(value) && Object.values(value).some(hasLongString);
}

const extraInputsMessage = (seams: FaultSeams, method: string, location: string): string =>
  `invalid params for ${method}: ${location}Extra inputs are not permitted${seams.legacyMessages ? '' : OUT_OF_SYNC_SUFFIX}`;

/** Rewrites the unknown-key rejections (4000) of one method. */
const onUnknownKeyRejections = (method: string, change: (error: Frame) => Frame) =>
  onResponses(method, (outbound) => {
    const error = outbound.frame['error'];
    if (!isPlainObject(error) || error['code'] !== ErrorCode.INVALID_PARAMS_HERMES) return [outbound];
    return [reframed(outbound, { ...outbound.frame, error: change(error) })];
  });

export const PARAMS_FAULTS: readonly GatewayFault[] = [
  {
    name: 'params.unknown-keys-accepted',
    breaks: 'session.set_hidden silently drops unknown keys under its closed model and succeeds',
    check: 'params.unknown-key-rejected',
    install: (seams) =>
      seams.inbound.use(
        onRequests('session.set_hidden', (request) => {
          if (!isPlainObject(request.params)) return { value: request.request };
          const params = structuredClone(request.params);
          for (let removed = 0; removed < 64; removed++) {
            const extra = extraKey(seams, 'session.set_hidden', params);
            if (!extra) break;
            deleteAt(params, extra);
          }
          return { value: { ...request.request, params } };
        }),
      ),
  },
  {
    name: 'params.unknown-key-wrong-code',
    breaks: 'session.usage rejects an unknown key with -32602 instead of the Hermes 4000',
    check: 'params.unknown-key-rejected',
    install: (seams) => seams.funnel.use(onUnknownKeyRejections('session.usage', (error) => ({ ...error, code: ErrorCode.INVALID_PARAMS }))),
  },
  {
    name: 'params.unknown-key-unnamed',
    breaks: "session.context_breakdown's 4000 message does not name the unknown key",
    check: 'params.unknown-key-rejected',
    install: (seams) => seams.funnel.use(onUnknownKeyRejections('session.context_breakdown', (error) => ({ ...error, message: extraInputsMessage(seams, 'session.context_breakdown', '') }))),
  },
  {
    name: 'params.open-model-rejects-extra-key',
    breaks: 'llm.oneshot rejects an extra key under an open model (variables) with 4000, as if the model were closed',
    check: 'params.unknown-key-tolerated',
    install: (seams) =>
      seams.inbound.use(
        onRequests('llm.oneshot', (request) => {
          const extra = extraKey(seams, 'llm.oneshot', request.params ?? {}, true);
          return extra ? errorReply(request, ErrorCode.INVALID_PARAMS_HERMES, extraInputsMessage(seams, 'llm.oneshot', `${extra.join('.')}: `)) : { value: request.request };
        }),
      ),
  },
  {
    name: 'params.invalid-accepted',
    breaks: 'terminal.resize answers contract-invalid params with a success ({cols: 80}) instead of -32602',
    check: 'params.invalid-not-accepted',
    install: (seams) =>
      seams.funnel.use(
        onResponses('terminal.resize', (outbound) => {
          if (errorCode(outbound.frame) !== ErrorCode.INVALID_PARAMS) return [outbound];
          const { error: _refusal, ...rest } = outbound.frame;
          return [reframed(outbound, { ...rest, result: { cols: 80 } })];
        }),
      ),
  },
  {
    name: 'params.long-string-crash',
    breaks: 'session.steer crashes (-32603) on a string of 16 KiB or more',
    check: 'params.valid-accepted',
    install: (seams) =>
      seams.inbound.use(onRequests('session.steer', (request) => (hasLongString(request.params) ? errorReply(request, ErrorCode.INTERNAL_ERROR, 'internal error') : { value: request.request }))),
  },
  {
    name: 'params.method-never-answers',
    breaks: 'session.most_recent is never answered',
    check: 'params.valid-accepted',
    install: (seams) => seams.funnel.use(onResponses('session.most_recent', () => [])),
  },
  {
    name: 'params.method-closes-1011',
    breaks: 'session.list closes the socket with 1011 where it would answer a success (its handler crashes the connection)',
    check: 'params.valid-accepted',
    install: (seams) =>
      seams.funnel.use(
        onResponses('session.list', (outbound, connection) => {
          if (!('result' in outbound.frame)) return [outbound];
          connection.link.close(1011, 'internal error');
          return [];
        }),
      ),
  },
];
