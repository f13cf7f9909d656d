import { join } from 'node:path';
import { readProfileData } from '../../src/checks/codeProfile.js';
import type { ProfileData } from '../../src/checks/codeProfileData.js';
import { PACKAGE_ROOT } from '../../src/config/packagePaths.js';

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

/** The profile's codes and wording (codes.json), read once. */
export const HERMES_CODES: ProfileData = readProfileData(join(PACKAGE_ROOT, 'profiles', 'hermes', 'codes.json'));

/** Text appended by v0.21.4+ Hermes servers to version-skew rejections (U+2014 dash, literal backticks); codes.json holds it. */
export const HERMES_OUT_OF_SYNC_SUFFIX: string = HERMES_CODES.placeholders?.['outOfSyncSuffix'] ?? '';
