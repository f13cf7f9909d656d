import type { ValidateFunction } from 'ajv';
import { cachedValidator } from '../../core/validatorCache.js';
import { HarnessError } from '../../core/index.js';
import type { AuthSettings } from '../client/authSettings.js';
import { decodeAuthSettings } from './authSettingsCodec.js';
import { runConfigSchema } from './configSchema.js';
import type { Options } from './optionTable.js';
import type { CarriedFields } from './optionTypes.js';

/**
 * Everything one run of the conformance suites needs, decided once by the CLI and written as a file into the
 * report folder; every process of the run reads it through the one environment variable that names the file
 * (runConfigFile.ts). Its fields are the option table's run options (under their `field` names), plus what the
 * command derives from them: the target, the shard and the auth. It never holds a secret: only the names of the
 * environment variables that do.
 */
export type RunConfig = CarriedFields<Options> & {
  readonly version: 1;
  readonly target: RunTarget;
  readonly shard: Shard | undefined;
  /** How every connection authenticates (`--auth`); absent: the legacy token of `tokenEnv` (loopback mode). */
  readonly auth?: AuthSettings;
  /** Epoch milliseconds at which the command started the run: the one clock a `--budget` is measured on. */
  readonly startedAt?: number;
};

export type RunTarget =
  | { readonly kind: 'embedded'; readonly label: string }
  /** `url` carries no credential; `label` is what reports show. */
  | { readonly kind: 'external'; readonly url: string; readonly label: string };

export interface Shard {
  /** 1-based. */
  readonly index: number;
  readonly total: number;
}

/** A cell's time limit unless it declares its own (both runners: Playwright's `timeout`, the in-process runner). */
export const CELL_TIMEOUT_MS = 120_000;

/** Whether the run's target is gated: the harness authenticates with tickets or the internal credential. */
export function targetIsGated(config: RunConfig): boolean {
  return config.auth !== undefined && config.auth.mode !== 'token';
}

/** The configuration as text (the file the CLI writes). */
export function encodeRunConfig(config: RunConfig): string {
  return `${JSON.stringify(config, null, 2)}\n`;
}

let validator: ValidateFunction | undefined;

/** Parses and checks a run configuration against the schema the option table gives it, filling in literal defaults. */
export function decodeRunConfig(text: string, origin: string): RunConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new HarnessError('USAGE', `run configuration ${origin} is not JSON: ${(error as Error).message}`);
  }
  // The project's own schema (checked against draft-07 in its tests), run once: not checked again here.
  const validate = (validator ??= cachedValidator('run-config', { useDefaults: true, allErrors: false, validateSchema: false, code: { optimize: false } }, runConfigSchema()));
  if (!validate(raw)) {
    const error = validate.errors?.[0];
    const where = error?.instancePath ? error.instancePath.slice(1).replaceAll('/', '.') : 'the file';
    throw new HarnessError('USAGE', `run configuration ${origin}: ${where} ${error?.message ?? 'is invalid'} (written by another version of contract-gate? start runs with \`contract-gate run\`)`);
  }
  const config = raw as RunConfig & { auth?: unknown };
  const auth = decodeAuthSettings(config.auth, origin);
  const { auth: _raw, ...rest } = config;
  return (auth ? { ...rest, auth } : rest) as RunConfig;
}
