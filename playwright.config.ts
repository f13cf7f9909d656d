import { defineConfig } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveProfileDefaults } from './profiles/profileDefaults.js';
import { runConfigOrDefault } from './src/config/defaultRun.js';
import { loadContractSync } from './src/contracts/loadContract.js';
import { parallelismOf } from './src/config/parallelism.js';
import { CELL_TIMEOUT_MS } from './src/config/runConfig.js';

/**
 * The conformance suites, run from the compiled package (`dist/`). `contract-gate run` writes the run
 * configuration into the report folder and names it in CONTRACT_GATE_RUN_CONFIG, the one channel every process of
 * the run (this runner, its reporters, the workers) reads it through; without it the embedded reference gateway is
 * tested with the defaults.
 *
 * Three projects: `prepare` runs each method's phases and samples the events once; `conformance` holds the cells
 * (they judge what `prepare` recorded, or drive their own scenario); `destructive`, the teardown of `prepare`,
 * sends the frames and drops a fragile target may not survive, after everything else: one cell at a time on a shared
 * server, side by side where every worker has a target of its own (fixtures/cellPlacement.ts).
 */
const runConfig = await runConfigOrDefault(() => resolveProfileDefaults({}, (path) => loadContractSync(path)));
const reportDir = runConfig.reportDir;
const here = dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  testDir: join(here, 'suites'),
  // The package is compiled JavaScript already (`dist/`): Playwright loads it as it is instead of passing every file
  // through Babel (about 3 s of CPU in the runner and in each worker while its transform cache is cold).
  build: { external: [join(here, '**')] },
  fullyParallel: true,
  forbidOnly: !!process.env['CI'],
  retries: 0,
  workers: parallelismOf(runConfig).workers,
  timeout: CELL_TIMEOUT_MS,
  outputDir: join(reportDir, 'test-output', 'playwright'),
  reporter: [
    ['./reporters/progress.js'],
    ['./reporters/conformanceMatrix.js', { outputDir: reportDir }],
    ['junit', { outputFile: join(reportDir, 'junit.xml') }],
    ['./reporters/allureResults.js', { resultsDir: join(reportDir, 'allure-results'), detail: false }],
    ...(runConfig.shard ? ([['blob', { outputDir: join(reportDir, 'blob') }]] as const) : []),
  ],
  use: { trace: 'off' },
  projects: [
    { name: 'prepare', testMatch: 'prepare/**/*.prepare.js', teardown: 'destructive' },
    { name: 'conformance', testMatch: '**/*.spec.js', testIgnore: 'destructive/**', dependencies: ['prepare'] },
    { name: 'destructive', testMatch: 'destructive/**/*.spec.js', fullyParallel: false },
  ],
});
