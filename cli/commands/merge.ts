import type { Command } from 'commander';
import { join } from 'node:path';
import { mergeShards } from '../../reporters/shardMerge.js';
import { REPO_ROOT } from '../lib/repoPaths.js';

export function registerMergeCommand(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('merge')
    .argument('<blob-dirs...>', 'report folders of the shards (each holds blob/report-*.zip and its partial matrix.json)')
    .description('Merge the reports of `run --shard i/n` runs into one report folder with one matrix.')
    .option('--report-dir <dir>', 'folder of the merged report', 'contract-gate-report')
    .addHelpText(
      'after',
      `
Every shard must run with the same --seed, target and contracts (the merge refuses otherwise).
Exit codes: 0 the merged matrix passes; 1 a check failed or a baseline entry is stale; 2 the merge failed.

Example (four machines, then one merge job):
  npx contract-gate run --shard 1/4 --seed 42 --report-dir blob-1   # … 2/4, 3/4, 4/4 on other machines
  npx contract-gate merge blob-*/ --report-dir contract-gate-report`,
    )
    .action(async (dirs: string[], options: { reportDir: string }) => {
      const { exitCode } = await mergeShards(dirs, options.reportDir, { testDir: join(REPO_ROOT, 'suites') });
      setExitCode(exitCode);
    });
}
