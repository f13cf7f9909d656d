import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DEFAULT_CONTRACT = join(REPO_ROOT, 'contracts/hermes/session-lifecycle.openrpc.json');
export const HOOKS_EXTENSION = join(REPO_ROOT, 'contracts/extensions/session-hooks.openrpc.json');
export const SUITES_CONFIG = join(REPO_ROOT, 'playwright.config.ts');

export function playwrightCli(): string {
  return createRequire(import.meta.url).resolve('@playwright/test/cli');
}
