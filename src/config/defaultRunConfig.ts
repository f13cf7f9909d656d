import { join } from 'node:path';
import { DEFAULT_CONTRACT, HOOKS_EXTENSION, PACKAGE_ROOT } from './packagePaths.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_RUNS, DEFAULT_STATEFUL_RUNS, DEFAULT_STATEFUL_STEPS, type RunConfig } from './runConfig.js';
import { runConfigFromEnv } from './runConfigFile.js';

/** What a bare `npx playwright test -c dist/playwright.config.js` runs: the embedded gateway with defaults. */
export function defaultRunConfig(): RunConfig {
  return {
    version: 1,
    target: { kind: 'embedded', label: 'embedded reference gateway' },
    contracts: [DEFAULT_CONTRACT],
    extensions: [HOOKS_EXTENSION],
    clientContract: undefined,
    profile: 'hermes',
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
export function currentRunConfig(): RunConfig {
  return runConfigFromEnv() ?? defaultRunConfig();
}
