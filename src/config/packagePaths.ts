import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The installed package's root: the nearest folder above this file whose package.json names contract-gate. The
 * same code runs from the sources (tests, benches) and from `dist/` (the CLI), so paths are never counted in `..`.
 */
function findPackage(start: string): { root: string; version: string } {
  for (let dir = start; ; dir = dirname(dir)) {
    const path = join(dir, 'package.json');
    const manifest = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as { name?: string; version?: string }) : undefined;
    if (manifest?.name === 'contract-gate') return { root: dir, version: manifest.version ?? 'unknown' };
    if (dirname(dir) === dir) throw new Error(`contract-gate: no package.json of contract-gate above ${start}`);
  }
}

const FOUND = findPackage(dirname(fileURLToPath(import.meta.url)));
export const PACKAGE_ROOT = FOUND.root;
/** The installed package's version (`contract-gate --version`). */
export const PACKAGE_VERSION = FOUND.version;
/** Compiled JavaScript of the package (what the CLI and Playwright run). */
export const DIST_ROOT = join(PACKAGE_ROOT, 'dist');
export const SUITES_CONFIG = join(DIST_ROOT, 'playwright.config.js');
