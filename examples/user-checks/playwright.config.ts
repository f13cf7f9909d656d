import { defineConfig } from '@playwright/test';

// Plain Playwright: the gateway, its contract and its auth come from contract-gate.config.mjs.
export default defineConfig({
  testDir: 'tests',
  reporter: [['list']],
  timeout: 30_000,
});
