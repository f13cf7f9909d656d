/** Local failures of the harness itself (never sent on the wire). Messages carry the code, the subject and the fix. */
export type HarnessErrorCode =
  | 'GATEWAY_UNREACHABLE'
  | 'CONNECTION_CLOSED'
  | 'REQUEST_TIMEOUT'
  | 'UNPARSEABLE_FRAME'
  | 'UNMATCHED_RESPONSE_ID'
  | 'CONTRACT_INVALID'
  | 'CONTRACT_NOT_FOUND'
  | 'USAGE'
  | 'BASELINE_INVALID'
  | 'REPLAY_FILE_INVALID'
  | 'EVENT_TIMEOUT'
  | 'BINDING_FAILED'
  /** A login or a ticket mint was refused, or the target's auth mode needs other options. */
  | 'AUTH_FAILED';

const HARNESS_ERROR_BRAND = Symbol.for('contract-gate/HarnessError');

export class HarnessError extends Error {
  readonly code: HarnessErrorCode;
  readonly [HARNESS_ERROR_BRAND] = true;

  constructor(code: HarnessErrorCode, message: string, options?: { cause?: unknown }) {
    super(`[${code}] ${message}`, options);
    this.name = 'HarnessError';
    this.code = code;
  }

  static is(value: unknown): value is HarnessError {
    return typeof value === 'object' && value !== null && HARNESS_ERROR_BRAND in value;
  }
}
