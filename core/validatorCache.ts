import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _, type Ajv, type CodeOptions, type Options, type ValidateFunction } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { AJV_DEFAULTS, createAjv } from './ajv.js';
import { STALE_PARTIAL_MS, validatorCacheDir, writeEntry } from './cacheFolder.js';

export { validatorCacheDir } from './cacheFolder.js';

const require = createRequire(import.meta.url);
// Imported, not required: the bundled command line then holds one copy of ajv's code generator, so the `_` code of
// the formats option below is one standalone recognises (from another copy it is a value to serialise, and fails).
const standaloneCode = standaloneModule as unknown as (ajv: Ajv, validate: ValidateFunction) => string;
const AJV_VERSION = (require('ajv/package.json') as { version: string }).version;
/** Bumped whenever what a cached file holds changes meaning. */
const FORMAT = 2;

/**
 * The validator seed an installed package ships (`validator-seed/` beside its `dist/`, written when it is packed):
 * the entries a default run of its profiles' documents stores, so that a machine's first run loads them too instead
 * of compiling them. `CONTRACT_GATE_SEED_DIR` names another. A checkout of the repository reads none (its runs and
 * tests compile as a machine's first run does); nor does a run with the cache off.
 */
export function validatorSeedDir(env: NodeJS.ProcessEnv = process.env, moduleUrl: string = import.meta.url): string | undefined {
  if (env['CONTRACT_GATE_SEED_DIR']) return env['CONTRACT_GATE_SEED_DIR'];
  const here = fileURLToPath(moduleUrl);
  const at = here.lastIndexOf(`${sep}dist${sep}`);
  const root = at >= 0 ? here.slice(0, at) : join(dirname(here), '..');
  return root.includes(`${sep}node_modules${sep}`) ? join(root, 'validator-seed') : undefined;
}

/** A seed's two files: the entries' code one after the other, and where each lies in it. */
const SEED_CODES = 'codes.txt';
const SEED_INDEX = 'index.json';

/** Offset and length in bytes of each entry's code, by the entry's file name in a cache folder. */
type SeedIndex = Record<string, readonly [number, number]>;

/** An open seed: its index read once, its code read entry by entry where the cache misses. */
class ValidatorSeed {
  private constructor(
    private readonly fd: number,
    private readonly index: SeedIndex,
  ) {}

  private static readonly opened = new Map<string, ValidatorSeed | undefined>();

  /** The seed in `dir`, opened once per process; none when it is missing or unreadable. */
  static in(dir: string): ValidatorSeed | undefined {
    if (!ValidatorSeed.opened.has(dir)) {
      let seed: ValidatorSeed | undefined;
      try {
        const index = JSON.parse(readFileSync(join(dir, SEED_INDEX), 'utf8')) as SeedIndex;
        seed = new ValidatorSeed(openSync(join(dir, SEED_CODES), 'r'), index);
      } catch {
        seed = undefined;
      }
      ValidatorSeed.opened.set(dir, seed);
    }
    return ValidatorSeed.opened.get(dir);
  }

  code(name: string): string | undefined {
    const at = this.index[name];
    if (!Array.isArray(at)) return undefined;
    const [offset, length] = at;
    const bytes = Buffer.allocUnsafe(length);
    try {
      if (readSync(this.fd, bytes, 0, length, offset) !== length) return undefined;
    } catch {
      return undefined;
    }
    return bytes.toString('utf8');
  }
}

/**
 * Writes the entries of the cache folder `cacheDir` as a seed in `seedDir` (replaced): one file of code and its index,
 * not thousands of files (an install of a package with 2,053 small files took 3-5 s more). Returns the entries written.
 */
export function packValidatorSeed(cacheDir: string, seedDir: string): number {
  const names = readdirSync(cacheDir).filter((name) => name.endsWith('.cjs')).sort();
  rmSync(seedDir, { recursive: true, force: true });
  mkdirSync(seedDir, { recursive: true });
  const index: Record<string, [number, number]> = {};
  const fd = openSync(join(seedDir, SEED_CODES), 'w');
  try {
    let offset = 0;
    for (const name of names) {
      const code = readFileSync(join(cacheDir, name));
      writeSync(fd, code);
      index[name] = [offset, code.length];
      offset += code.length;
    }
  } finally {
    closeSync(fd);
  }
  writeFileSync(join(seedDir, SEED_INDEX), JSON.stringify(index));
  return names.length;
}

const DEFAULT_MAX_MB = 256;
/** A loaded entry older than this is marked used again (its modification time), so pruning keeps what runs use. */
const REFRESH_AFTER_MS = 24 * 60 * 60 * 1000;

/** The folder's bound in bytes: `CONTRACT_GATE_CACHE_MAX_MB` megabytes (default 256; a default run of a document of 1,300 schemas stores about 13 MB). */
export function validatorCacheLimit(env: NodeJS.ProcessEnv = process.env): number {
  const megabytes = Number(env['CONTRACT_GATE_CACHE_MAX_MB']);
  return (Number.isFinite(megabytes) && megabytes > 0 ? megabytes : DEFAULT_MAX_MB) * 1024 * 1024;
}

interface Entry {
  readonly path: string;
  readonly size: number;
  readonly usedMs: number;
}

function entriesOf(dir: string, now: number): Entry[] {
  const entries: Entry[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    try {
      const { size, mtimeMs } = statSync(path);
      if (name.endsWith('.cjs')) entries.push({ path, size, usedMs: mtimeMs });
      else if (name.endsWith('.partial') && now - mtimeMs > STALE_PARTIAL_MS) rmSync(path, { force: true });
    } catch {
      // Removed meanwhile by another run: nothing to count.
    }
  }
  return entries;
}

/**
 * Keeps the folder within `limit` bytes: when it is over, the entries used least recently (written, or loaded on
 * an earlier day) go first, down to three quarters of the limit, so that pruning is rare. Writers' partial files
 * left by a process that died go too. Best effort like the cache itself: what cannot be read or removed is left.
 */
export function pruneValidatorCache(dir: string, limit: number, now = Date.now()): { removed: number; bytes: number } {
  let entries: Entry[];
  try {
    entries = entriesOf(dir, now);
  } catch {
    return { removed: 0, bytes: 0 };
  }
  let bytes = entries.reduce((sum, entry) => sum + entry.size, 0);
  let removed = 0;
  if (bytes <= limit) return { removed, bytes };
  for (const entry of entries.sort((a, b) => a.usedMs - b.usedMs)) {
    if (bytes <= limit * 0.75) break;
    try {
      rmSync(entry.path, { force: true });
      bytes -= entry.size;
      removed++;
    } catch {
      // Not ours to remove: it stays counted.
    }
  }
  return { removed, bytes };
}

/** Folders this process has pruned: once each, after its first write there (a run that only loads never prunes). */
const pruned = new Set<string>();

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A document's digest: equal documents share their cached validators, whichever object holds them. */
export function contentDigest(value: unknown): string {
  return sha256(JSON.stringify(value)).slice(0, 32);
}

/** What the validator caches of this process did: validators loaded from them, and compiled and written to them. */
export interface ValidatorCacheActivity {
  /** The folder, or undefined when the cache is off. */
  readonly dir: string | undefined;
  readonly loaded: number;
  readonly stored: number;
}

const activity = { loaded: 0, stored: 0 };

export function validatorCacheActivity(env: NodeJS.ProcessEnv = process.env): ValidatorCacheActivity {
  return { dir: validatorCacheDir(env), ...activity };
}

const NON_ASCII = /[^\x00-\x7f]/g;

/**
 * Generated `code` with each non-ASCII character written as its `\u` escape. V8 keeps the source of the functions
 * it compiles, and a source with one character beyond Latin-1 (a `→` in a schema's description) takes two bytes a
 * character for all of its text: the escaped text takes one. In the code ajv generates such characters are only in
 * string literals, regular expressions and comments, where the escape stands for the same character (a surrogate
 * pair's two escapes for one code point in a `u` expression too). Code where one follows a backslash is kept as it is.
 */
export function asciiSource(code: string): string {
  if (code.search(NON_ASCII) === -1 || /\\[^\x00-\x7f]/.test(code)) return code;
  return code.replace(NON_ASCII, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Compiled validators on disk, as ajv's standalone code, keyed by everything the code depends on: ajv's version,
 * the cache format, the scope (the Ajv options and the registered document's digest) and the schema's own text.
 * Compiling a document's schemas is most of a short run's start; each later run, worker or process loads them.
 * Best effort: an unreadable, unwritable or broken entry is a miss, and the schema is compiled as without a cache.
 */
export class ValidatorCache {
  private readonly prefix: string;
  private failedWrites = 0;

  private constructor(
    private readonly dir: string,
    scope: string,
    private readonly limit: number,
    private readonly seed: ValidatorSeed | undefined,
  ) {
    this.prefix = `${AJV_VERSION}\n${FORMAT}\n${scope}\n`;
  }

  /** The cache for one Ajv configuration and registered document (`scope` names both), or none when it is off. */
  static open(scope: string, env: NodeJS.ProcessEnv = process.env): ValidatorCache | undefined {
    const dir = validatorCacheDir(env);
    if (dir === undefined) return undefined;
    const seedDir = validatorSeedDir(env);
    return new ValidatorCache(dir, scope, validatorCacheLimit(env), seedDir === undefined ? undefined : ValidatorSeed.in(seedDir));
  }

  private nameOf(schemaText: string): string {
    return `${sha256(this.prefix + schemaText)}.cjs`;
  }

  /** The cached validator of `schemaText`: from the cache folder, else from the package's seed, else none. */
  load(schemaText: string): ValidateFunction | undefined {
    const name = this.nameOf(schemaText);
    const path = join(this.dir, name);
    let code: string | undefined;
    try {
      code = readFileSync(path, 'utf8');
      this.markUsed(path);
    } catch {
      code = this.seed?.code(name);
    }
    if (code === undefined) return undefined;
    try {
      const module = { exports: {} as { default?: ValidateFunction } };
      new Function('require', 'module', 'exports', code)(require, module, module.exports);
      if (typeof module.exports.default !== 'function') return undefined;
      activity.loaded++;
      return module.exports.default;
    } catch {
      return undefined;
    }
  }

  /** Entries are written once; a load on a later day moves the entry's modification time, which pruning goes by. */
  private markUsed(path: string): void {
    try {
      if (Date.now() - statSync(path).mtimeMs > REFRESH_AFTER_MS) utimesSync(path, new Date(), new Date());
    } catch {
      // A read-only cache is still a cache: it is only pruned by whoever can write it.
    }
  }

  /** Keeps `validate` (compiled by `ajv`, whose options include `code.source`) for the next run. */
  store(schemaText: string, ajv: Ajv, validate: ValidateFunction): void {
    if (this.failedWrites > 2) return;
    try {
      writeEntry(join(this.dir, this.nameOf(schemaText)), asciiSource(standaloneCode(ajv, validate)));
      activity.stored++;
      if (!pruned.has(this.dir)) {
        pruned.add(this.dir);
        pruneValidatorCache(this.dir, this.limit);
      }
    } catch {
      this.failedWrites++;
    }
  }
}

/** How a cached validator's code names the formats of ajv-formats: it loads them itself. */
const STORED_CODE = { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` };

/**
 * The validator cache as a store for another Ajv's validators: the reference gateway's (gateway/index.ts
 * `validatorStore`), which compiles with its own Ajv and options and names its scope. The gateway shares no code with
 * the harness; whoever starts it passes this.
 */
export const validatorStore = {
  code: STORED_CODE,
  open: (scope: string): ValidatorCache | undefined => ValidatorCache.open(scope),
};

/**
 * An Ajv (core/ajv.ts) whose validators may be kept between runs, and the cache that keeps them: one per owner
 * (`harness`, `fuzz`), configuration and document (`digest`); none without a digest or with the cache off. With the
 * cache on, ajv keeps each validator's source, and the standalone code it saves loads its formats from ajv-formats.
 */
export function cachingAjv(owner: string, options: Options & { code: CodeOptions }, digest: string | undefined): { ajv: Ajv; cache: ValidatorCache | undefined } {
  const cache = digest === undefined ? undefined : ValidatorCache.open(`${owner} ${JSON.stringify({ ...AJV_DEFAULTS, ...options })} ${digest}`);
  const code = cache ? { ...options.code, ...STORED_CODE } : options.code;
  return { ajv: createAjv({ ...options, code }), cache };
}

/**
 * The validator of one schema that does not change between runs (a meta-schema, the run configuration's schema): from
 * the cache when a run has compiled it before, else compiled (with `others` registered for its `$ref`s) and stored.
 */
export function cachedValidator(owner: string, options: Options & { code: CodeOptions }, schema: object, others: readonly object[] = []): ValidateFunction {
  const text = JSON.stringify(schema);
  const { ajv, cache } = cachingAjv(owner, options, contentDigest([text, others]));
  const cached = cache?.load(text);
  if (cached) return cached;
  for (const other of others) ajv.addSchema(other);
  const validate = ajv.compile(schema);
  cache?.store(text, ajv, validate);
  return validate;
}
