import { isAbsolute, resolve } from 'node:path';
import type { AuthSettings } from '../client/authSettings.js';
import { fieldOf, optionsOf, type RunSettings } from './optionTable.js';
import type { OptionKind } from './optionTypes.js';
import type { ProfileDefaults } from './profileDefaults.js';
import { decodeRunConfig, type RunConfig, type RunTarget } from './runConfig.js';
import { parseShard } from './shardText.js';

/** One source of settings: the command line, a project of the configuration file, its top level. */
export interface SettingsLayer {
  readonly values: Readonly<Record<string, unknown>>;
  /** Relative paths in this layer are relative to this folder (the configuration file's, or the working directory). */
  readonly baseDir: string;
}

/** Defaults computed from the other settings (the table's `defaultFrom.by: 'derived'`). */
export const DERIVED_DEFAULTS: Readonly<Record<string, (settings: RunSettings) => unknown>> = {
  drainLimit: (settings) => 6 * settings.requestTimeout,
};

function resolvePath(kind: OptionKind, value: unknown, baseDir: string): unknown {
  if (kind.kind === 'list') return (value as unknown[]).map((item) => resolvePath(kind.of, item, baseDir));
  if (kind.kind !== 'path' || typeof value !== 'string') return value;
  if (kind.keywords?.includes(value) || (kind.names !== undefined && /^[\w-]+$/.test(value)) || (kind.url && /^https?:/i.test(value)) || isAbsolute(value)) return value;
  return resolve(baseDir, value);
}

/**
 * The settings of a run: each layer overrides the ones before it, key by key (a list replaces a list, it does not
 * add to it), after its relative paths are resolved against its own folder. Pass the layers lowest first: the
 * configuration file's top level, then the project, then the command line. Unset keys take the table's defaults,
 * whose paths are relative to the first layer's folder (the configuration file's), else to `defaultsDir`.
 */
export function mergeRunSettings(layers: readonly SettingsLayer[], defaultsDir: string = process.cwd()): RunSettings {
  const merged: Record<string, unknown> = {};
  const base = layers[0]?.baseDir ?? defaultsDir;
  for (const [key, spec] of optionsOf('run')) {
    if (spec.default !== undefined) merged[key] = resolvePath(spec.type, spec.default, base);
    for (const layer of layers) {
      const value = layer.values[key];
      if (value !== undefined) merged[key] = resolvePath(spec.type, value, layer.baseDir);
    }
  }
  return merged as RunSettings;
}

/** What the command decides from the settings before the run starts. */
export interface RunDecisions {
  readonly target: RunTarget;
  readonly profile: ProfileDefaults;
  readonly seed: number;
  readonly tokenEnv: string | undefined;
  readonly auth?: AuthSettings | undefined;
  readonly startedAt?: number;
}

/** The run configuration of these settings; it is checked against its schema, so the CLI never writes a bad one. */
export function buildRunConfig(settings: RunSettings, decided: RunDecisions): RunConfig {
  const values: Record<string, unknown> = {
    ...settings,
    contract: decided.profile.contracts,
    extension: decided.profile.extensions,
    profile: decided.profile.profile,
    bindings: decided.profile.bindings,
    seed: decided.seed,
    tokenEnv: decided.tokenEnv,
  };
  for (const [key, derive] of Object.entries(DERIVED_DEFAULTS)) values[key] ??= derive(settings);
  const config: Record<string, unknown> = { version: 1, target: decided.target };
  const shard = settings.shard ? parseShard(settings.shard) : undefined;
  if (shard) config['shard'] = shard;
  if (decided.auth && decided.auth.mode !== 'token') config['auth'] = decided.auth;
  if (decided.startedAt !== undefined) config['startedAt'] = decided.startedAt;
  for (const [key, spec] of optionsOf('run')) {
    const field = fieldOf(key, spec);
    if (field !== undefined && values[key] !== undefined) config[field] = values[key];
  }
  return decodeRunConfig(JSON.stringify(config), 'of this run');
}
