import { expect, test } from './helpers/test.js';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type CliResult, REPO, runCli, runScript } from './helpers/cliRunner.js';
import { scratchDir } from './helpers/scratchDir.js';

/*
 * A finished command never keeps a CI job waiting on a handle left open (a socket still closing, a timer): the event
 * loop gets three seconds to drain, then the process ends with the command's exit code and names what stayed open.
 */

const LEAK = { NODE_OPTIONS: `--import ${join(REPO, 'test', 'unit', 'helpers', 'leakedHandle.mjs')}` };
const LINGER = /^contract-gate: the command ended, but Timeout stayed open 3 s later; exiting$/m;

test('a command that leaves a handle open still ends, with its exit code, naming the handle; without one it ends at once and says nothing', async () => {
  // runCli kills a child still running after 30 s (exit code -1): exit 0 with the grace's message is the grace's end.
  const leaked = await runCli(['profiles'], LEAK, 30_000);
  expect(leaked.code, leaked.stderr).toBe(0);
  expect(leaked.stdout).toContain('hermes (default');
  expect(leaked.stderr).toMatch(LINGER);

  const usage = await runCli(['replay', join(REPO, 'no-such-replay.json')], LEAK, 30_000);
  expect(usage.code, 'the usage error keeps its exit code').toBe(2);
  expect(usage.stderr).toMatch(LINGER);

  const clean = await runCli(['profiles']);
  expect(clean.code).toBe(0);
  expect(clean.stderr).not.toMatch(/stayed open/);
});

test('an unbuilt package says so (exit 2); a built one whose bundle cannot load a dependency shows that error instead', async () => {
  const entryIn = (files: Record<string, string>): Promise<CliResult> => {
    const dir = scratchDir('contract-gate-entry');
    cpSync(join(REPO, 'bin'), join(dir, 'bin'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'contract-gate', type: 'module' }));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return runScript(join(dir, 'bin', 'contract-gate.js'), ['--version']);
  };
  const unbuilt = await entryIn({});
  expect([unbuilt.code, unbuilt.stderr]).toEqual([2, 'contract-gate: the package is not built (no dist/cli/bundle/main.cjs): run `npm run build` in its folder\n']);
  const built = (path: string) => readFileSync(join(REPO, path), 'utf8');
  const broken = await entryIn({
    'dist/cli/bundle/main.cjs': "require('contract-gate-no-such-dependency');\nexports.main = async () => 0;\n",
    'dist/cli/codeCache.js': built('dist/cli/codeCache.js'),
    'dist/core/cacheFolder.js': built('dist/core/cacheFolder.js'),
  });
  expect(broken.code).toBe(1);
  expect(broken.stderr).toContain("Cannot find module 'contract-gate-no-such-dependency'");
  expect(broken.stderr).not.toContain('not built');
});
