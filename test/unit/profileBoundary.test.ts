import { expect, test } from './helpers/test.js';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PROFILES } from '../../profiles/index.js';
import { GENERIC_CATALOGUE } from '../../src/checks/checkCatalogue.js';

const ROOT = join(import.meta.dirname, '..', '..');
/** The generic harness: no file here may name a family (its methods, codes and frames come from a profile). */
const GENERIC = ['src', 'core', 'fuzz', 'cli', 'fixtures', 'reporters'];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|html|json)$/.test(name) ? [path] : [];
  });
}

test('the generic harness names no profile: no file under src, core, fuzz, cli, fixtures or reporters mentions Hermes', () => {
  const offenders = GENERIC.flatMap((dir) => sources(join(ROOT, dir)))
    .flatMap((path) => readFileSync(path, 'utf8').split('\n').map((line, index) => ({ path, line, index })))
    .filter(({ line }) => /hermes/i.test(line))
    .map(({ path, index, line }) => `${relative(ROOT, path)}:${index + 1}: ${line.trim().slice(0, 120)}`);
  expect(offenders).toEqual([]);
});

test('the generic harness names none of the reference family frames and methods', () => {
  const familyWords = /gateway\.(ping|ready)|session\.(create|close|resume|info)|prompt\.submit|hermes-gateway/;
  const offenders = GENERIC.filter((dir) => dir !== 'cli')
    .flatMap((dir) => sources(join(ROOT, dir)))
    .filter((path) => familyWords.test(readFileSync(path, 'utf8')))
    .map((path) => relative(ROOT, path));
  expect(offenders).toEqual([]);
});

test('every registered profile is complete and its checks extend the generic catalogue without clashing', () => {
  const names = PROFILES.map((profile) => profile.name);
  expect(new Set(names).size, `profile names ${names.join(', ')}`).toBe(names.length);
  expect(names.at(-1), 'the last profile recognises every document').toBe('json-rpc');
  for (const profile of PROFILES) {
    expect(profile.wire.probe.method, `${profile.name}: a probe`).toMatch(/\S/);
    for (const check of profile.checks) expect(GENERIC_CATALOGUE.has(check.id), `${profile.name} redeclares ${check.id}`).toBe(false);
    expect(() => GENERIC_CATALOGUE.with(profile.checks)).not.toThrow();
  }
});
