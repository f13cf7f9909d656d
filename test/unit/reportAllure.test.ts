import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './helpers/test.js';
import { ALLURE_RANGE, renderAllureReport } from '../../reporters/allureReport.js';
import { COMMANDS } from '../../cli/commands/index.js';
import { removeScratchDirs, runConfigEnv, runFixture, scratchDir } from '../reporterFixtures/runFixture.js';

test.afterEach(({}, testInfo) => {
  if (testInfo.status === testInfo.expectedStatus) removeScratchDirs();
});

test('allure-playwright results render into a static Allure 3 report without Java', async () => {
  const dir = scratchDir();
  const results = join(dir, 'allure-results');
  const run = await runFixture(['passing.spec.ts', '--output', join(dir, 'out')], { ...runConfigEnv({ reportDir: join(dir, 'report') }), FIXTURE_ALLURE_DIR: results });
  expect(run.code, run.stderr).toBe(0);
  await renderAllureReport(results, join(dir, 'allure-report'));
  expect(existsSync(join(dir, 'allure-report', 'index.html'))).toBe(true);
  const summary = JSON.parse(readFileSync(join(dir, 'allure-report', 'summary.json'), 'utf8')) as { stats: { total: number; passed: number } };
  expect(summary.stats).toMatchObject({ total: 2, passed: 2 });
});

test('rendering without results says which folder is empty', async () => {
  const dir = scratchDir();
  mkdirSync(join(dir, 'allure-results'));
  await expect(renderAllureReport(join(dir, 'allure-results'), join(dir, 'report'))).rejects.toThrow(/\[USAGE\] no Allure results in .*allure-results: run the suites with the allure-playwright reporter first/);
});

test('allure is an optional peer dependency, named with one range in the manifest, the advice and the help', () => {
  const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as Record<string, Record<string, unknown>>;
  expect(manifest['dependencies']?.['allure'], 'not installed with the gate').toBeUndefined();
  expect(manifest['peerDependencies']?.['allure']).toBe(ALLURE_RANGE);
  expect(manifest['peerDependenciesMeta']?.['allure']).toEqual({ optional: true });
  expect(manifest['devDependencies']?.['allure'], "the repository's own tests render reports").toBe(ALLURE_RANGE);
  expect(COMMANDS.find((command) => command.name === 'report')?.description).toContain(`npm i -D allure@${ALLURE_RANGE}`);
});
