import { HERMES_PROFILE } from '../../../profiles/hermes/profile.js';
import { profileNamed } from '../../../profiles/index.js';
import type { CodeProfile } from '../../../src/checks/codeProfile.js';
import type { Profile } from '../../../src/profile/profile.js';

/** The registered profiles' codes, as the judges take them. */
export const HERMES_CODES: CodeProfile = HERMES_PROFILE.codes;
export const JSON_RPC: Profile = profileNamed('json-rpc') as Profile;
export const JSON_RPC_CODES: CodeProfile = JSON_RPC.codes;
export { HERMES_PROFILE };
