import { expect, test } from './helpers/test.js';
import { join } from 'node:path';
import { REPO, runCli } from './helpers/cliRunner.js';

/*
 * A finished command never keeps a CI job waiting on a handle left open (a socket still closing, a timer): the event
 * loop gets three seconds to drain, then the process ends with the command's exit code and names what stayed open.
 */

const LEAK = { NODE_OPTIONS: `--import ${join(REPO, 'test', 'unit', 'helpers', 'leakedHandle.mjs')}` };
const LINGER = /^contract-gate: the command ended, but Timeout stayed open 3 s later; exiting$/m;

test('a command that leaves a handle open still ends, with its exit code, naming the handle; without one it ends at once and says nothing', async () => {
  const started = Date.now();
  const leaked = await runCli(['profiles'], LEAK, 30_000);
  expect(leaked.code, leaked.stderr).toBe(0);
  expect(leaked.stdout).toContain('hermes (default');
  expect(leaked.stderr).toMatch(LINGER);
  expect(Date.now() - started, 'ended by the grace, not by the test').toBeLessThan(25_000);

  const usage = await runCli(['replay', join(REPO, 'no-such-replay.json')], LEAK, 30_000);
  expect(usage.code, 'the usage error keeps its exit code').toBe(2);
  expect(usage.stderr).toMatch(LINGER);

  const clean = await runCli(['profiles']);
  expect(clean.code).toBe(0);
  expect(clean.stderr).not.toMatch(/stayed open/);
});
