import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's root (the nearest package.json naming contract-gate): the same from the sources and from dist/. */
function findRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'contract-gate') return dir;
    if (dirname(dir) === dir) throw new Error(`reference gateway: no package.json of contract-gate above ${start}`);
  }
}

export const GATEWAY_PACKAGE_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));
export const GATEWAY_CONTRACTS_DIR = join(GATEWAY_PACKAGE_ROOT, 'profiles', 'hermes', 'contracts');
