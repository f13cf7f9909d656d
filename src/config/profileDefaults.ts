import { profileFor } from '../checks/profile.js';
import { DEFAULT_CONTRACT, HOOKS_EXTENSION } from './packagePaths.js';

/** What the user chose of the settings whose defaults depend on the profile (absolute paths, or absent). */
export interface ProfileChoice {
  readonly contract?: readonly string[] | undefined;
  readonly extension?: readonly string[] | undefined;
  readonly profile?: string | undefined;
  readonly bindings?: string | undefined;
}

export interface ProfileDefaults {
  readonly contracts: readonly string[];
  readonly extensions: readonly string[];
  /** A built-in profile name, or the path of a profile file. */
  readonly profile: string;
  /** A file, `none`, or `auto` (the profile's rules beside the contract). */
  readonly bindings: string;
}

/**
 * The one place where defaults come from the profile: the default documents, the profile picked from the first
 * document's title, its default extensions and bindings. The option table's entries with `defaultFrom.by:
 * 'profile'` (contract, extension, profile, bindings, and serve's and proxy's documents) are filled in here.
 */
export async function resolveProfileDefaults(choice: ProfileChoice, titleOf: (contract: string) => string | Promise<string>): Promise<ProfileDefaults> {
  const contracts = choice.contract?.length ? choice.contract : [DEFAULT_CONTRACT];
  const picked = profileFor(await titleOf(contracts[0] as string), choice.profile);
  return {
    contracts,
    extensions: choice.extension ?? (picked.name === 'hermes' ? [HOOKS_EXTENSION] : []),
    profile: choice.profile !== undefined && choice.profile !== picked.name ? choice.profile : picked.name,
    bindings: choice.bindings ?? 'auto',
  };
}
