import { defineConfig, type ReporterDescription } from '@playwright/test';
import { registerTypescriptHooks } from '../typescriptHooks.mjs';

// The reporters and the specs are the repository's TypeScript: compiled as the harness's tests are.
registerTypescriptHooks();

// Runs the tiny specs of this folder through the conformance-matrix reporter (for the reporter's own tests).
// FIXTURE_BLOB_DIR adds a blob report, as a sharded CI run would; FIXTURE_ALLURE_DIR adds allure-playwright (through the runner's own reporters/allureResults.ts).
const blobDir = process.env['FIXTURE_BLOB_DIR'];
const allureDir = process.env['FIXTURE_ALLURE_DIR'];
// FIXTURE_REPORT_DIR overrides the matrix folder (to show what happens when it cannot be written).
const reportDir = process.env['FIXTURE_REPORT_DIR'];
const reporter: ReporterDescription[] = [['../../reporters/conformanceMatrix.ts', reportDir ? { outputDir: reportDir } : {}]];
if (blobDir) reporter.push(['blob', { outputDir: blobDir }]);
if (allureDir) reporter.push(['../../reporters/allureResults.ts', { resultsDir: allureDir }]);
if (process.env['FIXTURE_PROGRESS']) reporter.push(['../../reporters/progress.ts']);

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  fullyParallel: true,
  retries: 0,
  // One worker: a failing test still hands the rest to a fresh one, so results still come from several workers, and a
  // second worker from the start costs a process start-up per run (these runs: 32 -> 27 s of CPU in all).
  workers: 1,
  timeout: 10_000,
  // As in a real run, the reporters read the run configuration CONTRACT_GATE_RUN_CONFIG names.
  reporter,
});
