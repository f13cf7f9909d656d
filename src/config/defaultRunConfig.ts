import { join } from 'node:path';
import { PACKAGE_ROOT } from './packagePaths.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_RUNS, DEFAULT_STATEFUL_RUNS, DEFAULT_STATEFUL_STEPS, type RunConfig } from './runConfig.js';
import { runConfigFromEnv } from './runConfigFile.js';

/** What a run given no documents uses: the default profile's (see profiles/index.ts). */
export interface ProfileDefaults {
  readonly contracts: readonly string[];
  readonly extensions: readonly string[];
  readonly profile: string;
}

const NO_DOCUMENTS: ProfileDefaults = { contracts: [], extensions: [], profile: 'auto' };

/** What a bare `npx playwright test -c dist/playwright.config.js` runs: the embedded gateway with defaults. */
export function defaultRunConfig(defaults: ProfileDefaults = NO_DOCUMENTS): RunConfig {
  return {
    version: 1,
    target: { kind: 'embedded', label: 'embedded reference gateway' },
    contracts: [...defaults.contracts],
    extensions: [...defaults.extensions],
    clientContract: undefined,
    profile: defaults.profile,
    bindings: 'auto',
    seed: 1,
    runs: DEFAULT_RUNS,
    tokenEnv: undefined,
    faults: [],
    legacyMessages: false,
    reportDir: join(PACKAGE_ROOT, 'contract-gate-report'),
    baseline: undefined,
    grep: undefined,
    shard: undefined,
    workers: undefined,
    requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS,
    statefulRuns: DEFAULT_STATEFUL_RUNS,
    statefulSteps: DEFAULT_STATEFUL_STEPS,
    statefulDirectives: false,
  };
}

/** The configuration of this process's run: the file named by the environment, else the defaults. */
export function currentRunConfig(defaults?: ProfileDefaults): RunConfig {
  return runConfigFromEnv() ?? defaultRunConfig(defaults);
}
