import { errorCode, isPlainObject, onResponses, reframed } from './frameRewrites.js';
import type { GatewayFault } from './faultTypes.js';

/** The method whose answers the per-method envelope faults spoil: nothing the harness binds depends on it. */
export const ENVELOPE_FAULT_METHOD = 'session.status';

const OVERSIZED_BYTES = 1024 * 1024;
/** Where the leaked trace says the gateway lives: an absolute path, as a real Node.js stack would show. */
const LEAKED_SOURCE = '/srv/hermes-gateway/node_modules/@hermes/gateway/dist/dispatch.js';

/** A frame that breaks the envelope rules (not a batch, not a response to a server request). */
function malformed(value: unknown): boolean {
  if (Array.isArray(value)) return false;
  if (!isPlainObject(value)) return true;
  if (!('method' in value) && ('result' in value || 'error' in value)) return false;
  return value['jsonrpc'] !== '2.0' || typeof value['method'] !== 'string';
}

export const ENVELOPE_FAULTS: readonly GatewayFault[] = [
  {
    name: 'envelope.parse-error-as-invalid-request',
    breaks: 'a frame that is not JSON is answered -32600 instead of -32700',
    check: 'envelope.parse-error',
    install: (seams) =>
      seams.funnel.use((outbound) => {
        if (outbound.kind !== 'response' || errorCode(outbound.frame) !== -32700) return [outbound];
        return [reframed(outbound, { ...outbound.frame, error: { code: -32600, message: 'invalid request' } })];
      }),
  },
  {
    name: 'envelope.unknown-method-as-invalid-params',
    breaks: 'an undeclared method is answered -32602 instead of -32601',
    check: 'envelope.unknown-method',
    install: (seams) =>
      seams.funnel.use((outbound) => {
        if (outbound.kind !== 'response' || errorCode(outbound.frame) !== -32601) return [outbound];
        return [reframed(outbound, { ...outbound.frame, error: { code: -32602, message: 'invalid params' } })];
      }),
  },
  {
    name: 'envelope.malformed-request-closes-socket',
    breaks: 'a malformed request (wrong jsonrpc, no method, not an object) closes the socket with 1002 instead of an error answer',
    check: 'envelope.invalid-request',
    install: (seams) =>
      seams.inbound.use((frame, connection) => {
        if (!malformed(frame.value)) return { value: frame.value };
        connection.link.close(1002, 'protocol error');
        return 'drop';
      }),
  },
  {
    name: 'envelope.batch-ignored',
    breaks: 'a batch (JSON array) frame gets no answer at all',
    check: 'envelope.batch',
    install: (seams) => seams.inbound.use((frame) => (Array.isArray(frame.value) && frame.value.length > 0 ? 'drop' : { value: frame.value })),
  },
  {
    name: 'envelope.oversized-frame-crashes',
    breaks: 'a frame over 1 MiB closes the socket with 1011 (a crash) instead of an answer or 1009',
    check: 'envelope.oversized-frame',
    install: (seams) =>
      seams.inbound.use((frame, connection) => {
        if (Buffer.byteLength(frame.text, 'utf8') <= OVERSIZED_BYTES) return { value: frame.value };
        connection.link.close(1011, 'internal error');
        return 'drop';
      }),
  },
  {
    name: 'envelope.fractional-id-truncated',
    breaks: 'a fractional request id (1.5) is echoed as an integer (1)',
    check: 'envelope.id-types',
    install: (seams) =>
      seams.funnel.use((outbound) => {
        const id = outbound.frame['id'];
        if (outbound.kind !== 'response' || typeof id !== 'number' || Number.isInteger(id)) return [outbound];
        return [reframed(outbound, { ...outbound.frame, id: Math.trunc(id) })];
      }),
  },
  {
    name: 'envelope.jsonrpc-missing',
    breaks: `answers to ${ENVELOPE_FAULT_METHOD} carry no jsonrpc member`,
    check: 'envelope.jsonrpc-version',
    install: (seams) =>
      seams.funnel.use(
        onResponses(ENVELOPE_FAULT_METHOD, (outbound) => {
          const { jsonrpc: _dropped, ...rest } = outbound.frame;
          return [reframed(outbound, rest)];
        }),
      ),
  },
  {
    name: 'envelope.id-echo-wrong',
    breaks: `answers to ${ENVELOPE_FAULT_METHOD} echo another id, by turns of another type (null) and of another value (a string upper-cased, an integer + 1)`,
    check: 'envelope.id-echo',
    install: (seams) => {
      let answered = 0;
      return seams.funnel.use(
        onResponses(ENVELOPE_FAULT_METHOD, (outbound) => {
          const id = outbound.frame['id'];
          const changed = answered++ % 2 === 0 ? null : typeof id === 'string' ? `${id.toUpperCase()}X` : typeof id === 'number' ? id + 1 : id;
          return [reframed(outbound, { ...outbound.frame, id: changed })];
        }),
      );
    },
  },
  {
    name: 'envelope.result-and-error',
    breaks: `answers to ${ENVELOPE_FAULT_METHOD} carry both result and error (the absent one as null)`,
    check: 'envelope.result-xor-error',
    install: (seams) => seams.funnel.use(onResponses(ENVELOPE_FAULT_METHOD, (outbound) => [reframed(outbound, { result: null, error: null, ...outbound.frame })])),
  },
  {
    name: 'envelope.error-code-as-string',
    breaks: `-32602 errors of ${ENVELOPE_FAULT_METHOD} carry their code as a string ("-32602")`,
    check: 'envelope.error-shape',
    install: (seams) =>
      seams.funnel.use(
        onResponses(ENVELOPE_FAULT_METHOD, (outbound) => {
          const error = outbound.frame['error'];
          if (!isPlainObject(error) || error['code'] !== -32602) return [outbound];
          return [reframed(outbound, { ...outbound.frame, error: { ...error, code: '-32602' } })];
        }),
      ),
  },
  {
    name: 'envelope.error-leaks-stack',
    breaks: `error answers of ${ENVELOPE_FAULT_METHOD} carry the handler's stack trace, with absolute file paths, in error.stack`,
    check: 'envelope.error-hygiene',
    install: (seams) =>
      seams.funnel.use(
        onResponses(ENVELOPE_FAULT_METHOD, (outbound) => {
          const error = outbound.frame['error'];
          if (!isPlainObject(error)) return [outbound];
          const message = typeof error['message'] === 'string' ? error['message'] : 'error';
          const stack = `Error: ${message}\n    at dispatch (${LEAKED_SOURCE}:212:17)\n    at async handleFrame (${LEAKED_SOURCE}:87:5)`;
          return [reframed(outbound, { ...outbound.frame, error: { ...error, stack } })];
        }),
      ),
  },
];
