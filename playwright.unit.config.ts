import { defineConfig } from '@playwright/test';

/** The harness's own tests (unit, property, gateway, reporter end-to-end, self-test). Conformance suites live in suites/. */
export default defineConfig({
  testDir: 'test',
  testMatch: '**/*.test.ts',
  fullyParallel: true,
  forbidOnly: !!process.env['CI'],
  retries: 0,
  workers: process.env['CI'] ? 2 : undefined,
  timeout: 60_000,
  reporter: process.env['CI'] ? [['line'], ['json', { outputFile: 'test-results/unit-results.json' }]] : [['list']],
  outputDir: 'test-results/unit-artifacts',
});
