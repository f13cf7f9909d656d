import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { HarnessError } from '../core/index.js';
import { GENERIC_CATALOGUE, type CheckCatalogue } from '../src/checks/checkCatalogue.js';
import { extendCodeProfile, readProfileData } from '../src/checks/codeProfile.js';
import type { Contract } from '../src/contracts/index.js';
import type { Profile } from '../src/profile/profile.js';
import { HERMES_PROFILE } from './hermes/profile.js';
import { jsonRpcProfile } from './json-rpc/profile.js';

/**
 * The registered profiles, most specific first: a run without `--profile` takes the first that recognises its
 * first contract. The first one is also the default run's (its documents and reference gateway).
 */
export const PROFILES: readonly Profile[] = [HERMES_PROFILE, jsonRpcProfile(HERMES_PROFILE.referenceGateway)];

/** The profile whose documents and reference gateway a run without `--contract` uses. */
export const DEFAULT_PROFILE: Profile = PROFILES[0]!;

export function profileNamed(name: string): Profile | undefined {
  return PROFILES.find((profile) => profile.name === name);
}

const names = (): string => PROFILES.map((profile) => profile.name).join(', ');

/**
 * A profile file (`--profile FILE`): its codes on top of the registered profile it `extends` (default json-rpc),
 * which gives everything else (wire, scenarios, reference gateway).
 */
export function loadProfileFile(path: string): Profile {
  const data = readProfileData(path, '--profile');
  const base = profileNamed(data.extends ?? 'json-rpc');
  if (!base) throw new HarnessError('USAGE', `--profile ${path}: extends "${data.extends}", which is no registered profile (${names()})`);
  return { ...base, name: data.name, description: data.description ?? base.description, codes: extendCodeProfile(base.codes, data) };
}

/** Whether a `--profile` value names a registered profile or an existing file; the usage error says which are known. */
export function assertProfileOption(value: string): void {
  if (profileNamed(value) || existsSync(resolve(value))) return;
  throw new HarnessError('USAGE', `--profile ${value}: neither a registered profile (${names()}) nor an existing file`);
}

/** The run's profile: the one named (or the file given), else the first registered profile that recognises the contract. */
export function resolveProfile(requested: string | undefined, contract: Contract | undefined): Profile {
  if (requested !== undefined && requested !== '' && requested !== 'auto') return profileNamed(requested) ?? loadProfileFile(requested);
  return PROFILES.find((profile) => contract !== undefined && profile.recognises(contract)) ?? PROFILES.at(-1)!;
}

/** Every check any registered profile can report: the generic catalogue, then each profile's own. */
export function allChecks(): CheckCatalogue {
  return PROFILES.reduce((catalogue, profile) => catalogue.with(profile.checks), GENERIC_CATALOGUE);
}
