import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

// What the caches on disk share (the validators', core/validatorCache.ts, and the command line's compiled code,
// cli/codeCache.ts): where they live and how an entry is written. Node's own modules only: the command line's entry
// reads this before it has loaded anything else.

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

/** A writer's partial file this old belongs to a process that died before renaming it. */
export const STALE_PARTIAL_MS = 60 * 60 * 1000;

/**
 * Writes an entry whole: into a partial file of this process, then renamed over `path`. Concurrent processes may
 * write the same entry: each writes its own file, so a reader sees a whole one. On failure the partial file is
 * removed where it can be, and the error thrown.
 */
export function writeEntry(path: string, data: string | NodeJS.ArrayBufferView): void {
  const partial = `${path}.${process.pid}.partial`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(partial, data);
    renameSync(partial, path);
  } catch (error) {
    try {
      rmSync(partial, { force: true });
    } catch {
      // The folder itself is unusable: nothing was written.
    }
    throw error;
  }
}
