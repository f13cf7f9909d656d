import { isAbsolute, resolve } from 'node:path';
import { HarnessError } from '../core/index.js';
import type { ProfileChoice, ProfileDefaults } from '../src/config/profileDefaults.js';
import type { Contract } from '../src/contracts/index.js';
import type { Profile } from '../src/profile/profile.js';
import { assertProfileOption, DEFAULT_PROFILE, profileNamed, resolveProfile } from './index.js';

/**
 * The one place where defaults come from the profile: the default profile's documents when none are named, the
 * profile itself (named, a codes file, or the first registered one that recognises the first document), its
 * extensions and its bindings. Returns the decided settings and the profile they name.
 */
export async function resolveProfileDefaults(choice: ProfileChoice, load: (path: string) => Contract | Promise<Contract>): Promise<ProfileDefaults & { readonly resolved: Profile }> {
  const contracts = choice.contract?.length ? choice.contract : DEFAULT_PROFILE.defaultContracts;
  if (contracts.length === 0) throw new HarnessError('USAGE', "no contract: pass --contract FILE (the target's OpenRPC document), or set contract in the configuration file");
  if (choice.profile !== undefined) assertProfileOption(choice.profile);
  const named = choice.profile === undefined || profileNamed(choice.profile) ? choice.profile : isAbsolute(choice.profile) ? choice.profile : resolve(choice.profile);
  const first = await load(contracts[0] as string);
  const resolved = resolveProfile(named, first);
  return {
    contracts,
    extensions: choice.extension ?? resolved.defaultExtensions([first]),
    profile: named ?? resolved.name,
    bindings: choice.bindings ?? 'auto',
    resolved,
  };
}
