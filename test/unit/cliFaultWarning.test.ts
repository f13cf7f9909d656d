import { expect, test } from './helpers/test.js';
import { runCli } from './helpers/cliRunner.js';
import { scratchDir } from './helpers/scratchDir.js';

// `run --fault NAME` on documents that do not declare what the fault breaks: nothing fails, and the run says so instead
// of reading as if the fault had been judged. (Where the fault's check does fail, nothing is said: the self-test's
// end-to-end CLI run holds that.)

test('a fault the run never reaches is pointed out, and the exit code stays the verdict', async () => {
  const idle = await runCli(['run', '--fault', 'result.wrong-type', '--contract', 'test/foreignServers/calculator.openrpc.json', '--seed', '1', '--runs', '5', '--report-dir', scratchDir('contract-gate-fault-idle')]);
  expect(idle.code, idle.stdout + idle.stderr).toBe(0);
  expect(idle.stderr).toMatch(/warning: --fault result\.wrong-type failed no result\.schema cell, the check meant to catch it\. What it breaks: session\.undo reports removed as a string/);
});
