import { NO_BINDINGS, loadBindingRules, type BindingRules } from '../binding/index.js';
import { GENERIC_CATALOGUE, type CheckCatalogue, type CheckId } from '../checks/checkCatalogue.js';
import { cellTags, cellTitle } from '../checks/tags.js';
import type { RunConfig } from '../config/runConfig.js';
import { RUN_CONFIG_ENV } from '../config/runConfigFile.js';
import { cellSelector, inShard, type CellSelector } from '../config/selection.js';
import { loadContractSync, type Contract } from '../contracts/index.js';
import type { Profile } from '../profile/profile.js';
import { baselineIndex, loadBaseline, type BaselineIndex } from '../report/baseline.js';
import { join } from 'node:path';

/** A run configuration with everything it names loaded: contracts, profile, bindings, baseline. */
export interface RunPlan {
  readonly config: RunConfig;
  readonly contracts: readonly Contract[];
  /** Extension documents the embedded gateway also serves and the profile's scenarios use. */
  readonly extensions: readonly Contract[];
  readonly clientContract: Contract | undefined;
  /** The family the target belongs to: its codes, wire, scenarios and reference gateway. */
  readonly profile: Profile;
  /** Every check this run knows: the generic ones and the profile's. */
  readonly checks: CheckCatalogue;
  readonly bindings: BindingRules;
  readonly baseline: BaselineIndex;
  readonly selects: CellSelector;
  /** Whether a group of cells (a method, a scenario family, the events) belongs to this run's shard. */
  readonly inShard: (group: string) => boolean;
  /** Whether a cell's title or tags match `--grep` (every cell without one), whichever shard holds it. */
  readonly matchesGrep: (cell: { subject: string; check: CheckId }) => boolean;
  /** Whether this run declares a cell: its group is in the shard and it matches `--grep`. */
  readonly isSelected: (cell: { subject: string; check: CheckId; group: string }) => boolean;
  /** Where the setup stage leaves method runs and the event sample for the cells. */
  readonly workDir: string;
}

const loadedContracts = new Map<string, Contract>();

/**
 * Whether a document loaded here is checked against the OpenRPC meta-schema. Not in the processes of a
 * `contract-gate run` (the Playwright runner and its workers, which find their configuration file in
 * CONTRACT_GATE_RUN_CONFIG): the CLI loaded and validated every document of the run before writing that file, and
 * the documents a profile's scenarios load are the package's own (validated by its tests). The check compiles the
 * meta-schema, about 0.2 s of CPU in every process; the rest of loading (dangling references, the model) stays.
 */
const validatedByCli = (): boolean => Boolean(process.env[RUN_CONFIG_ENV]);

/** Each document is parsed once per process, whatever asks for it. */
export function contractAt(path: string): Contract {
  let contract = loadedContracts.get(path);
  if (!contract) {
    contract = loadContractSync(path, { validate: !validatedByCli() });
    loadedContracts.set(path, contract);
  }
  return contract;
}

function bindingsFor(config: RunConfig, contract: Contract | undefined, profile: Profile): BindingRules {
  if (config.bindings === 'none') return NO_BINDINGS;
  if (config.bindings !== 'auto') return loadBindingRules(config.bindings);
  return contract ? profile.bindingsFor(contract) : NO_BINDINGS;
}

/** Picks the profile of a run from its configuration and its first contract (see profiles/index.ts). */
export type ProfileResolver = (requested: string, contract: Contract | undefined) => Profile;

/** Loads what a configuration names; the profile comes from `resolveProfile`. */
export function buildPlan(config: RunConfig, resolveProfile: ProfileResolver): RunPlan {
  const contracts = config.contracts.map(contractAt);
  const profile = resolveProfile(config.profile, contracts[0]);
  const checks = GENERIC_CATALOGUE.with(profile.checks);
  const selects = cellSelector(config);
  const matchesGrep = (cell: { subject: string; check: CheckId }): boolean => selects(cellTitle(cell.subject, cell.check), cellTags(cell.subject, cell.check, checks.get(cell.check).area));
  return {
    config,
    contracts,
    extensions: config.extensions.map(contractAt),
    clientContract: config.clientContract ? contractAt(config.clientContract) : undefined,
    profile,
    checks,
    bindings: bindingsFor(config, contracts[0], profile),
    baseline: baselineIndex(config.baseline ? loadBaseline(config.baseline, (id) => checks.has(id)) : []),
    selects,
    inShard: (group) => inShard(config.shard, group),
    matchesGrep,
    isSelected: (cell) => inShard(config.shard, cell.group) && matchesGrep(cell),
    workDir: join(config.reportDir, 'test-output', 'work'),
  };
}

/** The values no answer may carry: the token and every `--secret-env` variable's value. */
export function runSecrets(plan: RunPlan): string[] {
  const values = [runToken(plan), ...(plan.config.secretEnv ?? []).map((name) => process.env[name])];
  return values.filter((value): value is string => typeof value === 'string' && value !== '');
}

/** The token of the run, read from the variable the configuration names, or undefined. */
export function runToken(plan: RunPlan): string | undefined {
  return plan.config.tokenEnv ? process.env[plan.config.tokenEnv] : undefined;
}
