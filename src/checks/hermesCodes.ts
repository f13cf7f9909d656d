/** Hermes gateway error codes the harness reasons about (spec §2.4). */
export const HermesErrorCode = {
  INVALID_PARAMS: 4000,
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
  RESUME_TOO_LARGE: 4130,
  AGENT_INIT_FAILED: 5032,
  BACKEND_RETIRING: 5035,
} as const;

/** Text appended by v0.21.4+ Hermes servers to version-skew rejections (U+2014 dash, literal backticks). */
export const HERMES_OUT_OF_SYNC_SUFFIX =
  ' \u2014 the client and the Hermes backend are out of sync (different versions); run `hermes update` and restart both';
