/** What the user chose of the settings whose defaults depend on the profile (absolute paths, or absent). */
export interface ProfileChoice {
  readonly contract?: readonly string[] | undefined;
  readonly extension?: readonly string[] | undefined;
  readonly profile?: string | undefined;
  readonly bindings?: string | undefined;
}

/**
 * The settings whose defaults come from the profile, decided. The option table's entries with `defaultFrom.by:
 * 'profile'` (contract, extension, profile, bindings, and serve's and proxy's documents) are filled in by the one
 * resolver of the profile registry, `resolveProfileDefaults` (profiles/profileDefaults.ts).
 */
export interface ProfileDefaults {
  readonly contracts: readonly string[];
  readonly extensions: readonly string[];
  /** A registered profile's name, or the path of a profile file. */
  readonly profile: string;
  /** A file, `none`, or `auto` (the profile's own rules). */
  readonly bindings: string;
}
