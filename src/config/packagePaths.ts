import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The installed package's root: the nearest folder above this file whose package.json names contract-gate. The
 * same code runs from the sources (tests, benches) and from `dist/` (the CLI), so paths are never counted in `..`.
 */
function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'contract-gate') return dir;
    if (dirname(dir) === dir) throw new Error(`contract-gate: no package.json of contract-gate above ${start}`);
  }
}

export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));
/** Compiled JavaScript of the package (what the CLI and Playwright run). */
export const DIST_ROOT = join(PACKAGE_ROOT, 'dist');
export const CONTRACTS_DIR = join(PACKAGE_ROOT, 'contracts');
export const HOOKS_EXTENSION = join(CONTRACTS_DIR, 'extensions', 'session-hooks.openrpc.json');
/** The session lifecycle module of the Hermes contract, and the same module before cwd_explicit existed. */
export const SESSION_LIFECYCLE_CONTRACT = join(CONTRACTS_DIR, 'hermes', 'session-lifecycle.openrpc.json');
export const SESSION_LIFECYCLE_PRE_CWD_EXPLICIT = join(CONTRACTS_DIR, 'hermes', 'session-lifecycle.pre-cwd-explicit.openrpc.json');
/** The whole Hermes gateway document (every contract module), and the same document before cwd_explicit existed. */
export const HERMES_FULL_CONTRACT = join(CONTRACTS_DIR, 'hermes', 'gateway.openrpc.json');
export const HERMES_FULL_PRE_CWD_EXPLICIT = join(CONTRACTS_DIR, 'hermes', 'gateway.pre-cwd-explicit.openrpc.json');
/** The default target contract. */
export const DEFAULT_CONTRACT = HERMES_FULL_CONTRACT;

/** A Hermes document at the cwd_explicit fix and its twin from before it. */
export interface HermesPair {
  readonly current: string;
  readonly preCwdExplicit: string;
}

const HERMES_PAIRS: readonly HermesPair[] = [
  { current: HERMES_FULL_CONTRACT, preCwdExplicit: HERMES_FULL_PRE_CWD_EXPLICIT },
  { current: SESSION_LIFECYCLE_CONTRACT, preCwdExplicit: SESSION_LIFECYCLE_PRE_CWD_EXPLICIT },
];

/**
 * The pair a target document belongs to (by file name, so a copy of the session-lifecycle slice finds its own
 * twin); any other document is compared with the full pair.
 */
export function hermesPairFor(origin: string | undefined): HermesPair {
  const name = origin?.split(/[\\/]/).pop() ?? '';
  return HERMES_PAIRS.find((pair) => pair.current.endsWith(name) || pair.preCwdExplicit.endsWith(name)) ?? HERMES_PAIRS[0]!;
}
export const SUITES_CONFIG = join(DIST_ROOT, 'playwright.config.js');
