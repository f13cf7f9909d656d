import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { setAsideAllureResults } from '../../src/report/allureResults.js';
import { HarnessError } from '../../core/harnessError.js';

/**
 * Report entries a run or a merge writes (and the HTML report `contract-gate report` rendered from the run before):
 * removed first, so a reused folder never mixes two runs and a command that cannot finish leaves no earlier verdict
 * to be read as its own.
 */
const GENERATED = ['matrix.json', 'matrix.md', 'matrix.html', 'junit.xml', 'transcripts', 'replays', 'attachments', 'allure-report', 'test-output', 'blob', 'run-config.json', 'shard-records.json'];

export interface ClearOptions {
  /**
   * `set-aside`: the Allure results go aside, for the run engine to rewrite in place (src/report/allureResults.ts);
   * `remove`: they go (a merge pools the shards' results afresh).
   */
  readonly allureResults: 'set-aside' | 'remove';
  /** Folders that must survive (a merge's shards, which may sit in or be the output folder). */
  readonly keep?: readonly string[];
}

/** Removes what an earlier run or merge wrote into `reportDir`, sparing the `keep` folders and what holds them. */
export function clearEarlierReport(reportDir: string, options: ClearOptions): void {
  if (!existsSync(reportDir)) return;
  const folder = resolve(reportDir);
  const keep = (options.keep ?? []).map((path) => resolve(path));
  if (keep.includes(folder)) return;
  const holdsKept = (path: string): boolean => keep.some((kept) => kept === path || kept.startsWith(path + sep));
  for (const entry of GENERATED) {
    const path = join(folder, entry);
    if (!holdsKept(path)) rmSync(path, { recursive: true, force: true });
  }
  const allure = join(folder, 'allure-results');
  if (holdsKept(allure)) return;
  if (options.allureResults === 'set-aside') setAsideAllureResults(folder);
  else rmSync(allure, { recursive: true, force: true });
}

/**
 * Makes the folder an option names, one level at a time from its nearest existing ancestor, and says which option and
 * why when it cannot: a recursive `mkdirSync` never returns on some pseudo file systems (/proc on Linux, Node 20).
 */
export function makeOutputFolder(path: string, option: string): string {
  const folder = resolve(path);
  const missing: string[] = [];
  let probe = folder;
  while (!existsSync(probe)) {
    missing.unshift(probe);
    const parent = dirname(probe);
    if (parent === probe) break;
    probe = parent;
  }
  if (missing.length === 0 && !statSync(folder).isDirectory()) {
    throw new HarnessError('USAGE', `${option} ${path}: it is a file, not a folder; pass a folder to write the report into`);
  }
  for (const level of missing) {
    try {
      mkdirSync(level);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && statSync(level).isDirectory()) continue;
      const why = code === 'ENOTDIR' || code === 'EEXIST' ? `${dirname(level)} is not a folder` : `cannot create ${level} (${code ?? (error as Error).message})`;
      throw new HarnessError('USAGE', `${option} ${path}: ${why}; pass a folder that can be written`, { cause: error });
    }
  }
  return folder;
}
