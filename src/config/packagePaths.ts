import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The installed package's root: the nearest folder above this file whose package.json names contract-gate. The
 * same code runs from the sources (tests, benches) and from `dist/` (the CLI), so paths are never counted in `..`.
 */
function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'contract-gate') return dir;
    if (dirname(dir) === dir) throw new Error(`contract-gate: no package.json of contract-gate above ${start}`);
  }
}

export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));
/** Compiled JavaScript of the package (what the CLI and Playwright run). */
export const DIST_ROOT = join(PACKAGE_ROOT, 'dist');
export const SUITES_CONFIG = join(DIST_ROOT, 'playwright.config.js');
