/**
 * Module hooks for the harness's own tests (`registerTypescriptHooks`, called by playwright.unit.config.ts and by the
 * reporter fixtures' configuration): the repository's TypeScript is compiled by Sucrase instead of Playwright's Babel
 * transform, and kept in a cache on disk by content hash (node_modules/.cache/contract-gate-tests).
 *
 * Why: on a machine whose Playwright transform cache is cold (every fresh CI machine), the runner passed the 2.7 MB of
 * TypeScript its tests load through Babel before the first worker started: 11.8 s against 3.4 s warm, for `--list`
 * alone. Sucrase strips the same files in about 0.3 s. It keeps every line where it was, so stack traces and test
 * locations need no source map (Playwright maps a stack frame only through the maps of its own transform, and reads
 * the frame's line in the original file). Columns move where a line had type syntax before the frame's position: a
 * failure's caret can then point a few characters left of the call that failed.
 *
 * Only the repository's own `.ts` files are taken; node_modules, JavaScript and everything else go on to the next
 * hook (Playwright's). Playwright imports each test file once with the suffix `.esm.preflight` first, to compile it
 * for its source maps: that import is answered with an empty module here.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PREFLIGHT = '.esm.preflight';
const OPTIONS = { transforms: ['typescript'], disableESTransforms: true };
const REGISTERED = Symbol.for('contract-gate.typescriptHooks');
/** Compiled files kept at most; over it, the oldest go, down to PRUNED_TO (a miss costs a millisecond or so). */
const MAX_CACHED = 5_000;
const PRUNED_TO = 3_000;

/**
 * Every edit of a file adds an entry, and `npm ci` is what empties node_modules: a working copy's cache would grow
 * without end. The oldest entries (by when they were written) go once there are more than MAX_CACHED.
 * @param {string} dir
 */
export function pruneCompileCache(dir, max = MAX_CACHED, keep = PRUNED_TO) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  if (names.length <= max) return 0;
  const aged = [];
  for (const name of names) {
    try {
      aged.push({ name, written: statSync(join(dir, name)).mtimeMs });
    } catch {
      // Removed meanwhile by another run's prune.
    }
  }
  aged.sort((a, b) => a.written - b.written);
  const gone = aged.slice(0, Math.max(0, aged.length - keep));
  for (const { name } of gone) rmSync(join(dir, name), { force: true });
  return gone.length;
}

/**
 * Registers the hooks in this process, once: Playwright loads a configuration in its runner and again in each worker,
 * before any test file. Hooks registered later run first, so these see every import before Playwright's own.
 */
export function registerTypescriptHooks() {
  if (globalThis[REGISTERED]) return;
  globalThis[REGISTERED] = true;
  const root = new URL('..', import.meta.url);
  const cacheDir = join(fileURLToPath(root), 'node_modules', '.cache', 'contract-gate-tests');
  // The runner prunes, before any worker starts; the workers only read and add.
  if (process.env['TEST_WORKER_INDEX'] === undefined) pruneCompileCache(cacheDir);
  register(import.meta.url, { data: { root: root.href, cacheDir } });
}

let rootUrl = '';
let cacheDir = '';
/** Sucrase, loaded on the first file the cache does not hold. */
let sucrase;
/** What every cache key starts with: Sucrase's version and the options, so that either changing misses the cache. */
let keyPrefix = '';

/** @param {{ root: string, cacheDir: string }} data */
export function initialize(data) {
  rootUrl = data.root;
  cacheDir = data.cacheDir;
  try {
    mkdirSync(cacheDir, { recursive: true });
  } catch {
    // A read-only checkout: every file is compiled, nothing is kept.
  }
  keyPrefix = `${createRequire(import.meta.url)('sucrase/package.json').version}\n${JSON.stringify(OPTIONS)}\n`;
}

/** @type {import('node:module').LoadHook} */
export async function load(url, context, nextLoad) {
  if (!url.startsWith(rootUrl) || url.includes('/node_modules/')) return nextLoad(url, context);
  if (url.endsWith(`.ts${PREFLIGHT}`)) return { format: 'module', source: 'void 0;', shortCircuit: true };
  if (!url.endsWith('.ts')) return nextLoad(url, context);
  const path = fileURLToPath(url);
  return { format: 'module', source: await compiled(path, readFileSync(path, 'utf8')), shortCircuit: true };
}

async function compiled(path, source) {
  const key = createHash('sha1').update(keyPrefix).update(source).digest('hex');
  const cached = join(cacheDir, `${key}.js`);
  try {
    return readFileSync(cached, 'utf8');
  } catch {
    sucrase ??= await import('sucrase');
    const { code } = sucrase.transform(source, { ...OPTIONS, filePath: path });
    // Written aside and renamed, as core/validatorCache.ts stores validators (which a hook, running before any
    // TypeScript can load, cannot import): workers compiling the same file at once never read half a file.
    const partial = `${cached}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    try {
      writeFileSync(partial, code);
      renameSync(partial, cached);
    } catch {
      // A cache that cannot be written costs time only.
    }
    return code;
  }
}
