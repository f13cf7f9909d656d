/**
 * Error codes and wording the reference gateway answers with. Kept apart from the harness's `src/rpc` constants
 * on purpose: the oracle must not share values it could get wrong together with the harness.
 */
export const ErrorCode = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  INVALID_PARAMS_HERMES: 4000,
  SESSION_NOT_FOUND: 4001,
  SESSION_ID_REQUIRED: 4006,
  STORED_SESSION_NOT_FOUND: 4007,
  NOTHING_TO_BRANCH: 4008,
  SESSION_BUSY: 4009,
  CWD_REQUIRED: 4016,
  CWD_INVALID: 4017,
  TITLE_REQUIRED: 4021,
  TITLE_INVALID: 4022,
  DELETE_ACTIVE: 4023,
  ONESHOT_INPUT_REQUIRED: 4030,
  ONESHOT_OPTION_INVALID: 4031,
  PATH_OUTSIDE_ROOT: 4032,
  RESUME_TOO_LARGE: 4130,
  AGENT_INIT_FAILED: 5032,
} as const;

/** v0.21.4+ wording appended to version-skew rejections (U+2014 dash, literal backticks). */
export const OUT_OF_SYNC_SUFFIX =
  ' \u2014 the client and the Hermes backend are out of sync (different versions); run `hermes update` and restart both';

export interface WireError {
  readonly code: number;
  readonly message: string;
}

/** Thrown by handlers for a domain refusal; anything else a handler throws answers -32603. */
export class GatewayError extends Error implements WireError {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'GatewayError';
  }
}

export const sessionNotFound = (): GatewayError => new GatewayError(ErrorCode.SESSION_NOT_FOUND, 'session not found');
