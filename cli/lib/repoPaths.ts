import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/config/packagePaths.js';

export { PACKAGE_ROOT as REPO_ROOT, SUITES_CONFIG } from '../../src/config/packagePaths.js';

export function playwrightCli(): string {
  return createRequire(import.meta.url).resolve('@playwright/test/cli');
}

/** The version in the installed package's package.json (`contract-gate --version`). */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}
