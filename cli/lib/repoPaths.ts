import { createRequire } from 'node:module';

export { PACKAGE_ROOT as REPO_ROOT, PACKAGE_VERSION, SUITES_CONFIG } from '../../src/config/packagePaths.js';

export function playwrightCli(): string {
  return createRequire(import.meta.url).resolve('@playwright/test/cli');
}
