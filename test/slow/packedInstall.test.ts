import { expect, test } from '../unit/helpers/test.js';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installedPackage, npmExec } from '../unit/helpers/packedPackage.js';
import { ALLURE_RANGE } from '../../reporters/allureReport.js';

const npx = (dir: string, args: string[]) => npmExec(dir, ['contract-gate', ...args]);

// What a new user does, from the packed package in an empty folder: install it (production dependencies only),
// `contract-gate init`, `contract-gate run`. About 40 s: packing, installing from the npm cache, a short run. The
// install is the one the user-checks example links to (helpers/packedPackage.ts: installedPackage).
test.setTimeout(240_000);

test('from the packed tarball in an empty folder: init, then run exits 0 and reports where the configuration says, with its seed', async () => {
  const dir = await installedPackage();

  const init = await npx(dir, ['init']);
  expect(init.code, init.stdout + init.stderr).toBe(0);
  expect(init.stdout).toContain('Next: npx contract-gate run');
  // Kept short: one contract module, one method, a seed and a report folder of its own.
  const config = readFileSync(join(dir, 'contract-gate.config.mjs'), 'utf8')
    .replace("  // seed: 1,", "  seed: 31,\n  runs: 3,\n  grep: '@method:session\\\\.create',\n  contract: ['node_modules/contract-gate/profiles/hermes/contracts/session-lifecycle.openrpc.json'],")
    .replace("reportDir: 'contract-gate-report'", "reportDir: 'reports/gate'");
  writeFileSync(join(dir, 'contract-gate.config.mjs'), config);

  const run = await npx(dir, ['run']);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  const matrix = JSON.parse(readFileSync(join(dir, 'reports', 'gate', 'matrix.json'), 'utf8')) as { verdict: string; seed: number };
  expect([matrix.verdict, matrix.seed]).toEqual(['pass', 31]);
  const overridden = await npx(dir, ['run', '--seed', '32']);
  expect(overridden.code, overridden.stdout + overridden.stderr).toBe(0);
  expect((JSON.parse(readFileSync(join(dir, 'reports', 'gate', 'matrix.json'), 'utf8')) as { seed: number }).seed).toBe(32);

  // The HTML report's renderer is an optional peer dependency: not installed with the gate, and asked for by name.
  expect(existsSync(join(dir, 'node_modules', 'allure')), 'allure installed with the gate').toBe(false);
  const report = await npx(dir, ['report', 'reports/gate']);
  expect(report.code, report.stdout + report.stderr).toBe(2);
  expect(report.stderr).toContain(`is not installed: npm i -D allure@${ALLURE_RANGE}`);
});
