import type { Options } from './optionTable.js';
import type { KeysOf, ValueOf } from './optionTypes.js';

type FileKeys = Exclude<KeysOf<Options, 'run'>, 'config' | 'project'>;

type FileValue<K extends FileKeys> = Options[K]['type'] extends { kind: 'duration' }
  ? number | `${number}${'ms' | 's' | 'm' | 'h'}`
  : Options[K]['type'] extends { kind: 'list' }
    ? ValueOf<Options[K]['type']> | ValueOf<Options[K]['type']>[number]
    : ValueOf<Options[K]['type']>;

/** The options of `contract-gate run`, by their long names in camelCase. Paths are relative to the file. */
export type ContractGateOptions = { readonly [K in FileKeys]?: FileValue<K> };

/** A configuration file: `contract-gate.config.{ts,mjs,json}`. */
export interface ContractGateConfig extends ContractGateOptions {
  /** Where an editor finds the JSON Schema (JSON files). */
  readonly $schema?: string;
  /** Named sets of overrides picked with `--project NAME`; the command line still wins over them. */
  readonly projects?: Readonly<Record<string, ContractGateOptions>>;
}

/**
 * Types a configuration file: `export default defineConfig({ contract: ['gateway.openrpc.json'], seed: 7 })`.
 * Secrets never go in it, only the names of the variables holding them (`tokenEnv: 'GATEWAY_TOKEN'`).
 */
export function defineConfig(config: ContractGateConfig): ContractGateConfig {
  return config;
}
