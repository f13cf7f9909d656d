import type { ProfileDefaults } from './profileDefaults.js';
import type { RunConfig } from './runConfig.js';
import { RUN_CONFIG_ENV, runConfigFromEnv, writeRunConfig } from './runConfigFile.js';
import { buildRunConfig, mergeRunSettings } from './runSettings.js';

/**
 * The run configuration of this process: the one `contract-gate run` named, or, for a bare
 * `npx playwright test -c dist/playwright.config.js`, the defaults against the embedded reference gateway, written
 * into the report folder and named in the environment the workers inherit, so they read it as they would the CLI's.
 * `defaults` decides the profile's documents (profiles/profileDefaults.ts); it is asked only when no run is named.
 */
export async function runConfigOrDefault(defaults: () => Promise<ProfileDefaults>): Promise<RunConfig> {
  const named = runConfigFromEnv();
  if (named) return named;
  const settings = mergeRunSettings([]);
  const config = buildRunConfig(settings, {
    target: { kind: 'embedded', label: 'embedded reference gateway' },
    profile: await defaults(),
    seed: Math.floor(Math.random() * 2 ** 31),
    tokenEnv: undefined,
  });
  process.env[RUN_CONFIG_ENV] = writeRunConfig(config);
  return config;
}
