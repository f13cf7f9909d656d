import type { RunConfig } from '../../../src/config/runConfig.js';
import { buildRunConfig, mergeRunSettings } from '../../../src/config/runSettings.js';

/** A run configuration with the table's defaults (embedded target, no contract, seed 1) and `fields` over them. */
export function runConfigWith(fields: Partial<RunConfig> = {}): RunConfig {
  const config = buildRunConfig(mergeRunSettings([]), {
    target: { kind: 'embedded', label: 'embedded reference gateway' },
    profile: { contracts: [], extensions: [], profile: 'json-rpc', bindings: 'none' },
    seed: 1,
    tokenEnv: undefined,
  });
  return { ...config, ...fields };
}
