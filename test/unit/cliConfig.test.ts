import { expect, test } from './helpers/test.js';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, runCli } from './helpers/cliRunner.js';
import { scratchDir } from './helpers/scratchDir.js';

const SLICE = join(REPO, 'profiles/hermes/contracts/session-lifecycle.openrpc.json');
const SECRET = 'cg-config-secret-91be07';

test.describe.configure({ mode: 'parallel', timeout: 180_000 });

function configFolder(config: Record<string, unknown>): string {
  const dir = scratchDir('contract-gate-cli-config');
  writeFileSync(join(dir, 'contract-gate.config.json'), JSON.stringify(config));
  return dir;
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const seedOf = (reportDir: string): unknown => (JSON.parse(readFileSync(join(reportDir, "matrix.json"), "utf8")) as { seed: unknown }).seed;

test('the seed of the configuration file reaches the report, where the file says; --seed on the command line wins', async () => {
  const dir = configFolder({ contract: [SLICE], seed: 4242, runs: 3, grep: '@method:session\\.create', reportDir: 'reports/gate' });
  const reportDir = join(dir, 'reports', 'gate');
  const fromFile = await runCli(['run', '--config', dir]);
  expect(fromFile.code, fromFile.stdout + fromFile.stderr).toBe(0);
  expect(fromFile.stdout).toContain(`contract-gate: configuration ${join(dir, 'contract-gate.config.json')}`);
  expect(fromFile.stdout).toContain(`seed 4242; report ${reportDir}`);
  expect(seedOf(reportDir)).toBe(4242);
  const fromCli = await runCli(['run', '--config', dir, '--seed', '77']);
  expect(fromCli.code, fromCli.stdout + fromCli.stderr).toBe(0);
  expect(seedOf(reportDir)).toBe(77);
});

test('a literal secret in the configuration is refused with exit 2, naming the key, and is printed nowhere', async () => {
  for (const config of [{ contract: [SLICE], token: SECRET, reportDir: 'out' }, { contract: [SLICE], reportDir: 'out', projects: { staging: { tokenEnv: SECRET } } }]) {
    const dir = configFolder(config);
    const run = await runCli(['run', '--config', dir, ...(config.projects ? ['--project', 'staging'] : [])]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(config.projects ? /projects\.staging\.tokenEnv takes the NAME/ : /token would hold a secret/);
    expect(run.stdout + run.stderr).not.toContain(SECRET);
    // Refused before anything runs: no report folder, so no file that could hold it.
    expect(filesUnder(join(dir, 'out'))).toEqual([]);
    for (const file of filesUnder(dir)) if (!file.endsWith('contract-gate.config.json')) expect(readFileSync(file, 'utf8'), file).not.toContain(SECRET);
  }
});

test('command-line values are checked by the table too: a token where its variable name belongs is not repeated', async () => {
  const run = await runCli(['run', '--token-env', SECRET.replace(/-/g, '.'), '--contract', SLICE]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('--token-env takes the NAME of an environment variable');
  expect(run.stdout + run.stderr).not.toContain(SECRET.replace(/-/g, '.'));
  const bad = await runCli(['run', '--runs', '0']);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('--runs must be an integer ≥ 1, got "0"');
});
