import { expect, test } from './helpers/test.js';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CODE_CACHE_ENTRIES, codeCacheDir, codeCacheKey, dynamicImportsIn, pruneCodeCache, requireWithCodeCache } from '../../cli/codeCache.js';
import { REPO, runCli } from './helpers/cliRunner.js';
import { scratchDir } from './helpers/scratchDir.js';

/*
 * The command line is one CommonJS bundle loaded through V8's code cache (cli/codeCache.ts): the first process of a
 * kind stores what it compiled, later ones read it. An entry V8 takes is never written again; one it refuses (junk,
 * another build) is, and the command runs the same either way.
 */

const SLICE = join(REPO, 'profiles/hermes/contracts/session-lifecycle.openrpc.json');

const entriesIn = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.v8')).sort() : []);
const stamp = (path: string): string => `${statSync(path).mtimeMs}:${statSync(path).size}`;

test('the first command stores its compiled code, the next one reads it and writes nothing; a refused entry is written again; CONTRACT_GATE_CACHE=off stores none', async () => {
  const cache = scratchDir('contract-gate-code-cache');
  const code = join(cache, 'code');
  const env = { CONTRACT_GATE_CACHE_DIR: cache };
  const first = await runCli(['profiles'], env);
  expect(first.code, first.stderr).toBe(0);
  const [entry, ...others] = entriesIn(code);
  expect(others).toEqual([]);
  const path = join(code, entry as string);
  const written = stamp(path);

  const second = await runCli(['profiles'], env);
  expect([second.code, second.stdout]).toEqual([0, first.stdout]);
  expect(stamp(path), 'V8 took the entry: nothing written').toBe(written);

  // Another command compiles other code: an entry of its own.
  const help = await runCli(['--help'], env);
  expect(help.code).toBe(0);
  expect(entriesIn(code)).toHaveLength(2);

  writeFileSync(path, Buffer.alloc(statSync(path).size, 7));
  const refused = await runCli(['profiles'], env);
  expect([refused.code, refused.stdout]).toEqual([0, first.stdout]);
  expect(readFileSync(path).every((byte) => byte === 7), 'the refused entry is replaced').toBe(false);

  const offDir = scratchDir('contract-gate-code-cache-off');
  const off = await runCli(['profiles'], { CONTRACT_GATE_CACHE_DIR: offDir, CONTRACT_GATE_CACHE: 'off' });
  expect([off.code, off.stdout]).toEqual([0, first.stdout]);
  expect(existsSync(join(offDir, 'code'))).toBe(false);
});

test('CONTRACT_GATE_CODE_CACHE=off turns off the code cache alone: the run still keeps its validators', async () => {
  const cache = scratchDir('contract-gate-code-cache');
  const report = join(scratchDir('contract-gate-code-cache-report'), 'report');
  const run = await runCli(['run', '--contract', SLICE, '--grep', '@method:session\\.list(?=\\s|$)', '--runs', '2', '--report-dir', report], { CONTRACT_GATE_CACHE_DIR: cache, CONTRACT_GATE_CODE_CACHE: 'off' });
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(readdirSync(cache).filter((name) => name.endsWith('.cjs')).length, 'validators kept').toBeGreaterThan(0);
  expect(existsSync(join(cache, 'code'))).toBe(false);
});

test('a command read from the cache still imports what lies outside the bundle: a configuration file', async () => {
  const cache = scratchDir('contract-gate-code-cache');
  const dir = scratchDir('contract-gate-code-cache-config');
  writeFileSync(join(dir, 'contract-gate.config.mjs'), `export default ${JSON.stringify({ contract: [SLICE], seed: 5, runs: 2, grep: '@method:session\\.list(?=\\s|$)', reportDir: 'report' })};\n`);
  for (const round of ['compiled', 'from the cache']) {
    const run = await runCli(['run', '--config', dir], { CONTRACT_GATE_CACHE_DIR: cache });
    expect(run.code, `${round}: ${run.stdout}${run.stderr}`).toBe(0);
    expect((JSON.parse(readFileSync(join(dir, 'report', 'matrix.json'), 'utf8')) as { seed: number }).seed).toBe(5);
  }
  expect(entriesIn(join(cache, 'code'))).toHaveLength(1);
});

test('requireWithCodeCache gives what require gives, stores on keep() only what it lacked, and keys entries by the text itself', () => {
  const dir = scratchDir('contract-gate-code-cache-unit');
  const file = join(dir, 'bundle.cjs');
  writeFileSync(file, 'exports.answer = (x) => x * 2;\nexports.where = __filename;\n');
  const code = join(dir, 'code');

  const uncached = requireWithCodeCache(file, undefined, 'v');
  expect([(uncached.exports['answer'] as (x: number) => number)(21), uncached.exports['where']]).toEqual([42, file]);
  uncached.keep();
  expect(existsSync(code)).toBe(false);

  const first = requireWithCodeCache(file, code, 'v');
  expect(entriesIn(code), 'nothing before keep()').toEqual([]);
  first.keep();
  const [entry] = entriesIn(code);
  expect(entry).toBe(`${codeCacheKey(readFileSync(file, 'utf8'), 'v')}.v8`);
  const written = stamp(join(code, entry as string));
  const second = requireWithCodeCache(file, code, 'v');
  second.keep();
  expect((second.exports['answer'] as (x: number) => number)(4)).toBe(8);
  expect(stamp(join(code, entry as string))).toBe(written);

  // V8 compares only the length of the text with its data: a build of the same length is another entry.
  writeFileSync(file, 'exports.answer = (x) => x * 3;\nexports.where = __filename;\n');
  const changed = requireWithCodeCache(file, code, 'v');
  expect((changed.exports['answer'] as (x: number) => number)(4)).toBe(12);
  changed.keep();
  expect(entriesIn(code)).toHaveLength(2);
  expect(codeCacheKey('abc', 'v')).not.toBe(codeCacheKey('abd', 'v'));
  expect(codeCacheKey('abc', 'run')).not.toBe(codeCacheKey('abc', 'serve'));
  expect(codeCacheKey('abc', 'run', {})).not.toBe(codeCacheKey('abc', 'run', { NODE_OPTIONS: '--max-old-space-size=4096' }));
});

test('the cache keeps its newest entries and drops partial files of writers that died; it lives beside the validators', () => {
  const dir = scratchDir('contract-gate-code-cache-prune');
  const now = Date.now();
  const seconds = (ago: number) => new Date(now - ago * 1000);
  for (let index = 0; index < CODE_CACHE_ENTRIES + 3; index++) {
    const path = join(dir, `entry-${String(index).padStart(2, '0')}.v8`);
    writeFileSync(path, 'x');
    utimesSync(path, seconds(index), seconds(index));
  }
  writeFileSync(join(dir, 'old.v8.1.partial'), 'x');
  utimesSync(join(dir, 'old.v8.1.partial'), seconds(7200), seconds(7200));
  writeFileSync(join(dir, 'new.v8.2.partial'), 'x');
  mkdirSync(join(dir, 'unrelated'));
  pruneCodeCache(dir, CODE_CACHE_ENTRIES, now);
  const left = readdirSync(dir).sort();
  expect(left.filter((name) => name.endsWith('.v8'))).toEqual(Array.from({ length: CODE_CACHE_ENTRIES }, (_, index) => `entry-${String(index).padStart(2, '0')}.v8`));
  expect(left.filter((name) => !name.endsWith('.v8'))).toEqual(['new.v8.2.partial', 'unrelated']);

  expect(codeCacheDir({ CONTRACT_GATE_CACHE_DIR: '/x/y' })).toBe(join('/x/y', 'code'));
  expect(codeCacheDir({ XDG_CACHE_HOME: '/c' })).toBe(join('/c', 'contract-gate', 'validators', 'code'));
  expect(codeCacheDir({ CONTRACT_GATE_CACHE: 'off', CONTRACT_GATE_CACHE_DIR: '/x/y' })).toBeUndefined();
  expect(codeCacheDir({ CONTRACT_GATE_CODE_CACHE: 'off', CONTRACT_GATE_CACHE_DIR: '/x/y' })).toBeUndefined();
});

test('the bundle guard counts every import() call, and nothing that only looks like one', () => {
  expect(dynamicImportsIn("const a = await import('a');\nconst b = import (`b`);\n(0, import_x.default)(import(spec));")).toBe(3);
  expect(dynamicImportsIn("reimport('a'); x.import('b'); $import('c'); const u = import.meta.url; importer('d');")).toBe(0);
});
