import { expect, test } from './helpers/test.js';
import { runCli } from './helpers/cliRunner.js';
import { scratchDir } from './helpers/scratchDir.js';

// `run --fault NAME` on documents that do not declare what the fault breaks: nothing fails, and the run says so instead
// of reading as if the fault had been judged. Where the fault's check does fail, nothing is said.

const WARNING = /warning: --fault result\.wrong-type failed no result\.schema cell, the check meant to catch it\. What it breaks: session\.undo reports removed as a string/;

test('a fault the run never reaches is pointed out (the exit code stays the verdict); one that fails its check is not', async () => {
  const [idle, caught] = await Promise.all([
    runCli(['run', '--fault', 'result.wrong-type', '--contract', 'test/foreignServers/calculator.openrpc.json', '--seed', '1', '--runs', '5', '--report-dir', scratchDir('contract-gate-fault-idle')]),
    runCli(['run', '--fault', 'result.wrong-type', '--contract', 'profiles/hermes/contracts/session-lifecycle.openrpc.json', '--grep', '@method:session\\.undo(?=\\s|$)', '--seed', '1', '--runs', '5', '--report-dir', scratchDir('contract-gate-fault-caught')]),
  ]);
  expect(idle.code, idle.stdout + idle.stderr).toBe(0);
  expect(idle.stderr).toMatch(WARNING);
  expect(caught.code, caught.stdout + caught.stderr).toBe(1);
  expect(caught.stdout).toContain('FAIL session.undo × result.schema');
  expect(caught.stderr).not.toMatch(/--fault .* failed no/);
});
