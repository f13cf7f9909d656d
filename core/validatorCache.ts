import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Ajv, ValidateFunction } from 'ajv';

const require = createRequire(import.meta.url);
// CommonJS module with a default export, loaded as the standalone code it writes expects its runtime to be loaded.
const standaloneCode = (require('ajv/dist/standalone') as { default: (ajv: Ajv, validate: ValidateFunction) => string }).default;
const AJV_VERSION = (require('ajv/package.json') as { version: string }).version;
/** Bumped whenever what a cached file holds changes meaning. */
const FORMAT = 1;

/**
 * Where validators are kept between runs: `CONTRACT_GATE_CACHE_DIR`, else the user's cache folder
 * (`$XDG_CACHE_HOME/contract-gate/validators`, `~/.cache/...`). `CONTRACT_GATE_CACHE=off` turns the cache off.
 */
export function validatorCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env['CONTRACT_GATE_CACHE'] === 'off') return undefined;
  if (env['CONTRACT_GATE_CACHE_DIR']) return env['CONTRACT_GATE_CACHE_DIR'];
  const base = env['XDG_CACHE_HOME'] || join(homedir(), '.cache');
  return join(base, 'contract-gate', 'validators');
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A document's digest: equal documents share their cached validators, whichever object holds them. */
export function contentDigest(value: unknown): string {
  return sha256(JSON.stringify(value)).slice(0, 32);
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
  ) {
    this.prefix = `${AJV_VERSION}\n${FORMAT}\n${scope}\n`;
  }

  /** The cache for one Ajv configuration and registered document (`scope` names both), or none when it is off. */
  static open(scope: string, env: NodeJS.ProcessEnv = process.env): ValidatorCache | undefined {
    const dir = validatorCacheDir(env);
    return dir === undefined ? undefined : new ValidatorCache(dir, scope);
  }

  private pathOf(schemaText: string): string {
    return join(this.dir, `${sha256(this.prefix + schemaText)}.cjs`);
  }

  load(schemaText: string): ValidateFunction | undefined {
    let code: string;
    try {
      code = readFileSync(this.pathOf(schemaText), 'utf8');
    } catch {
      return undefined;
    }
    try {
      const module = { exports: {} as { default?: ValidateFunction } };
      new Function('require', 'module', 'exports', code)(require, module, module.exports);
      return typeof module.exports.default === 'function' ? module.exports.default : undefined;
    } catch {
      return undefined;
    }
  }

  /** Keeps `validate` (compiled by `ajv`, whose options include `code.source`) for the next run. */
  store(schemaText: string, ajv: Ajv, validate: ValidateFunction): void {
    if (this.failedWrites > 2) return;
    const path = this.pathOf(schemaText);
    const partial = `${path}.${process.pid}.partial`;
    try {
      const code = standaloneCode(ajv, validate);
      mkdirSync(this.dir, { recursive: true });
      writeFileSync(partial, code);
      // Concurrent runs may write the same entry: each writes its own file and renames it, so a reader sees a whole one.
      renameSync(partial, path);
    } catch {
      this.failedWrites++;
      try {
        rmSync(partial, { force: true });
      } catch {
        // The folder itself is unusable: nothing was written.
      }
    }
  }
}
