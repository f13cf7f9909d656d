// Loads the command line's CommonJS bundle with V8's code cache: the first process of a kind compiles the bundle (some
// two megabytes of code) as Node always does and, once its command has ended, stores what V8 compiled; later ones read
// that instead of parsing and compiling again. Node 20 has no compile cache of its own (`module.enableCompileCache`
// came with Node 22), and V8's cache is only reachable through `vm.Script`, for a script, not for an ES module: hence
// the CommonJS bundle (scripts/bundleCli.mjs).
//
// The cache is best effort, like the validator cache beside it: a folder that cannot be read or written, or data V8
// refuses (another Node, other flags), only means compiling as without it.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { STALE_PARTIAL_MS, validatorCacheDir, writeEntry } from '../core/cacheFolder.js';

/** Entries kept in the folder: one per kind of command and Node flags, for each build of the package in use. */
export const CODE_CACHE_ENTRIES = 24;

/**
 * The folder of the code cache: `code/` in the validator cache's folder, none when that cache is off or
 * `CONTRACT_GATE_CODE_CACHE=off` (this cache alone).
 */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const folder = validatorCacheDir(env);
  return folder === undefined || env['CONTRACT_GATE_CODE_CACHE'] === 'off' ? undefined : join(folder, 'code');
}

/**
 * The entry's name: the bundle's text, this Node and the flags the code is compiled under (V8 refuses data made under
 * other flags: a process of each would otherwise write the entry again for the other). V8 itself checks only the
 * text's length against its data, so two builds of one length must not share an entry: the text is in the key.
 */
export function codeCacheKey(source: string, variant: string, env: NodeJS.ProcessEnv = process.env): string {
  const flags = `${process.execArgv.join(' ')}\0${env['NODE_OPTIONS'] ?? ''}`;
  return createHash('sha1').update(`${process.version}\0${process.arch}\0${variant}\0${flags}\0`).update(source).digest('hex').slice(0, 32);
}

/**
 * The `import()` calls in a script's text. A script compiled through the code cache cannot make one (Node 20 loses the
 * callback in cached code), so the command line's bundle may hold only importModule's own, which its entry replaces
 * (core/importModule.ts): scripts/bundleCli.mjs refuses any other. Counted on the text, strings and comments included:
 * a false alarm costs a look, a miss a broken command.
 */
export function dynamicImportsIn(text: string): number {
  return text.match(/(?<![\w$.])import\s*\(/g)?.length ?? 0;
}

/** Keeps the newest `limit` entries (by the time they were written) and removes partial files left by dead writers. */
export function pruneCodeCache(dir: string, limit = CODE_CACHE_ENTRIES, now = Date.now()): void {
  const entries: { path: string; mtimeMs: number }[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    try {
      const { mtimeMs } = statSync(path);
      if (name.endsWith('.v8')) entries.push({ path, mtimeMs });
      else if (name.endsWith('.partial') && now - mtimeMs > STALE_PARTIAL_MS) rmSync(path, { force: true });
    } catch {
      // Removed meanwhile by another process.
    }
  }
  for (const { path } of entries.sort((a, b) => b.mtimeMs - a.mtimeMs).slice(limit)) rmSync(path, { force: true });
}

/**
 * Loads the CommonJS file `file` through V8's code cache in `dir` (none: no cache), as `require` would. `variant`
 * names what else changes the compiled code (the command, flags set at run time). Returns the module's exports and
 * `keep`, which stores the cache when there was none or V8 refused it: called once the command has ended, so that the
 * entry holds every function the command compiled, not only those of its start.
 */
export function requireWithCodeCache(file: string, dir: string | undefined, variant: string): { exports: Record<string, unknown>; keep: () => void } {
  const source = readFileSync(file, 'utf8');
  const path = dir ? join(dir, `${codeCacheKey(source, variant)}.v8`) : undefined;
  let cachedData: Buffer | undefined;
  try {
    if (path) cachedData = readFileSync(path);
  } catch {
    cachedData = undefined;
  }
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
    // No import() of its own: in Node 20 a function read from the cache loses it whatever is given here. The bundle
    // imports through the entry's (core/importModule.ts).
  });
  const module = { exports: {} as Record<string, unknown> };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, dirname(file));
  let kept = cachedData !== undefined && !script.cachedDataRejected;
  const keep = (): void => {
    if (kept || !path) return;
    kept = true;
    try {
      writeEntry(path, script.createCachedData());
      pruneCodeCache(dirname(path));
    } catch {
      // A cache that cannot be written: the next process compiles, as this one did.
    }
  };
  return { exports: module.exports, keep };
}
