import { join } from 'node:path';
import { mergeShards } from '../../reporters/shardMerge.js';
import { REPO_ROOT } from '../lib/repoPaths.js';

/** `contract-gate merge <blob-dirs...>`. */
export async function mergeAction(dirs: string[], options: Record<string, unknown>): Promise<number> {
  const { exitCode } = await mergeShards(dirs, options['reportDir'] as string, { testDir: join(REPO_ROOT, 'suites') });
  return exitCode;
}
