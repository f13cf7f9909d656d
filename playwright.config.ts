import { defineConfig } from '@playwright/test';
import { join, resolve } from 'node:path';

/**
 * The conformance suites. `contract-gate run` sets the CONTRACT_GATE_* environment (target, contracts, seed,
 * report folder, shard); a bare `npx playwright test` runs against the embedded reference gateway with defaults.
 */
const reportDir = resolve(process.env['CONTRACT_GATE_REPORT_DIR'] || 'contract-gate-report');
const sharded = Boolean(process.env['CONTRACT_GATE_SHARD']);

export default defineConfig({
  testDir: 'suites',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  forbidOnly: !!process.env['CI'],
  retries: 0,
  workers: process.env['CONTRACT_GATE_WORKERS'] ? Number(process.env['CONTRACT_GATE_WORKERS']) : process.env['CI'] ? 2 : undefined,
  timeout: 120_000,
  outputDir: join(reportDir, 'test-output'),
  reporter: [
    ['./reporters/progress.ts'],
    ['./reporters/conformanceMatrix.ts', { outputDir: reportDir }],
    ['junit', { outputFile: join(reportDir, 'junit.xml') }],
    ['allure-playwright', { resultsDir: join(reportDir, 'allure-results'), detail: false }],
    ...(sharded ? ([['blob', { outputDir: join(reportDir, 'blob') }]] as const) : []),
  ],
  use: { trace: 'off' },
  // One project per run: the embedded reference gateway unless the CLI names an external target.
  projects: [{ name: process.env['CONTRACT_GATE_TARGET'] ? 'external-target' : 'embedded-reference-gateway' }],
});
