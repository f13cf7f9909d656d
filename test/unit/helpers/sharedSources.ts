import { test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The inputs that live outside the repository: the shared folder (stored upstream Hermes contract
 * sources and the seed captures) and a python3 with the pydantic the generated documents need.
 * A test that needs them calls `requireSharedSources()`: missing inputs make it fail under `CI`
 * (a skipped check there would pass silently) and skip, with the same message, elsewhere.
 */

export const REPO = resolve(import.meta.dirname, '..', '..', '..');
export const PYDANTIC_VERSION = '2.13.4';
const SEED_FILE = '001_1bc7897246ef6c1c.txt';

export interface SharedSources {
  /** The shared folder: `<repo>/../shared`, else `/work/shared`. */
  readonly sharedDir: string;
  /** The stored upstream sources (`tui_gateway/contracts/*.py`, `scripts/gen_gateway_contracts.py`). */
  readonly hermesContracts: string;
  /** The seed captures (`001_…txt` is the current sessions.py). */
  readonly seeds: string;
  /** The interpreter to run `scripts/hermes/*.py` with. */
  readonly python: string;
}

type Located = { readonly found: SharedSources } | { readonly missing: string };

function locate(): Located {
  const candidates = [resolve(REPO, '..', 'shared'), '/work/shared'];
  const sharedDir = candidates.find((dir) => existsSync(join(dir, 'hermes-contracts', 'tui_gateway', 'contracts', '__init__.py')));
  if (sharedDir === undefined) {
    return { missing: `the stored Hermes contract sources are not in ${candidates.map((dir) => join(dir, 'hermes-contracts')).join(' or ')}` };
  }
  const seeds = join(sharedDir, 'seeds');
  if (!existsSync(join(seeds, SEED_FILE))) return { missing: `the seed capture ${SEED_FILE} is not in ${seeds}` };
  const python = 'python3';
  const probe = spawnSync(python, ['-c', 'import sys, pydantic; print(sys.version_info >= (3, 11), pydantic.VERSION)'], { encoding: 'utf8' });
  if (probe.error !== undefined || probe.status !== 0) {
    const reason = probe.error?.message ?? probe.stderr.trim().split('\n').pop() ?? `exit ${String(probe.status)}`;
    return { missing: `${python} with pydantic ${PYDANTIC_VERSION} is needed: ${reason}` };
  }
  const [recent, version] = probe.stdout.trim().split(' ');
  if (recent !== 'True') return { missing: `${python} is older than Python 3.11` };
  if (version !== PYDANTIC_VERSION) return { missing: `${python} has pydantic ${version ?? '?'}; the documents need ${PYDANTIC_VERSION}` };
  return { found: { sharedDir, hermesContracts: join(sharedDir, 'hermes-contracts'), seeds, python } };
}

let located: Located | undefined;

/** The shared inputs' paths, or (when one is missing) fail the calling test under CI and skip it otherwise. */
export function requireSharedSources(): SharedSources {
  located ??= locate();
  if ('found' in located) return located.found;
  const message = `${located.missing} (the shared folder is <repo>/../shared or /work/shared)`;
  if (process.env['CI']) throw new Error(`required under CI: ${message}`);
  test.skip(true, message);
  throw new Error(message); // not reached: test.skip throws
}
