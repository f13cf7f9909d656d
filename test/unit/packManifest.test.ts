import { expect, test } from './helpers/test.js';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from './helpers/scratchDir.js';

/*
 * `npm pack` (prepack, postpack) packs a package.json without the `prepare` script, so that installing the tarball
 * does not ask for a script to be reviewed, and gives the clone its package.json back as it was.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'packManifest.mjs');
const pack = (mode: string, manifest: string) => execFileSync(process.execPath, [SCRIPT, mode, manifest], { encoding: 'utf8' });

test("the packed package.json is the repository's without its prepare script, and the repository's comes back byte for byte", () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  expect(manifest.scripts['prepack']).toMatch(/node scripts\/packManifest\.mjs strip$/);
  expect(manifest.scripts['postpack']).toBe('node scripts/packManifest.mjs restore');

  const dir = scratchDir('contract-gate-pack-manifest');
  const path = join(dir, 'package.json');
  const original = readFileSync(join(ROOT, 'package.json'), 'utf8');
  writeFileSync(path, original);
  pack('strip', path);
  const packed = JSON.parse(readFileSync(path, 'utf8')) as { scripts: Record<string, string> };
  const { prepare, ...otherScripts } = manifest.scripts;
  expect(prepare, 'the clone builds on npm ci').toBeDefined();
  expect(packed).toEqual({ ...manifest, scripts: otherScripts });
  pack('restore', path);
  expect(readFileSync(path, 'utf8')).toBe(original);
  expect(existsSync(join(dir, '.package.json.before-pack')), 'nothing left beside it').toBe(false);
});

test('a pack that failed between strip and restore: the next pack packs the stripped file and restores the original', () => {
  const dir = scratchDir('contract-gate-pack-manifest');
  const path = join(dir, 'package.json');
  const original = `${JSON.stringify({ name: 'x', version: '1.0.0', scripts: { prepare: 'build', test: 'check' } }, null, 2)}\n`;
  writeFileSync(path, original);
  pack('strip', path);
  pack('strip', path);
  expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ name: 'x', version: '1.0.0', scripts: { test: 'check' } });
  pack('restore', path);
  expect(readFileSync(path, 'utf8')).toBe(original);
  pack('restore', path);
  expect(readFileSync(path, 'utf8'), 'a restore with nothing kept changes nothing').toBe(original);
});
