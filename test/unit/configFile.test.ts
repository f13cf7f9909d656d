import { expect, test } from './helpers/test.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { didYouMean } from '../../src/config/configCheck.js';
import { findConfigFile } from '../../src/config/configFile.js';
import { loadRunSettings } from '../../src/config/loadRunSettings.js';
import { OPTIONS } from '../../src/config/optionTable.js';
import { loadConfigInChild } from './helpers/configInChild.js';
import { scratchDir } from './helpers/scratchDir.js';

const SECRET = 'cg-literal-secret-4d1f9a';

function folder(files: Record<string, string>): string {
  const dir = scratchDir('contract-gate-config');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const json = (value: unknown): string => JSON.stringify(value);

/** The error a load ends with: its message must name the key and must not carry the value. */
async function refusal(files: Record<string, string>, given: Record<string, unknown> = {}): Promise<string> {
  const dir = folder(files);
  const error = await loadRunSettings(given, dir).then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  expect(error, 'the configuration was accepted').toBeInstanceOf(Error);
  return (error as Error).message;
}

test('precedence: the command line over the project, the project over the top level, that over the defaults', async () => {
  const dir = folder({ 'contract-gate.config.json': json({ seed: 7, runs: 20, maxInFlight: 3, projects: { staging: { seed: 8, target: 'ws://staging:1/api/ws' } } }) });
  const top = (await loadRunSettings({}, dir)).settings;
  expect([top.seed, top.runs, top.maxInFlight, top.statefulRuns, top.target]).toEqual([7, 20, 3, OPTIONS.statefulRuns.default, undefined]);
  const staged = (await loadRunSettings({ project: 'staging' }, dir)).settings;
  expect([staged.seed, staged.runs, staged.target]).toEqual([8, 20, 'ws://staging:1/api/ws']);
  const cli = (await loadRunSettings({ project: 'staging', seed: 9, runs: 1 }, dir)).settings;
  expect([cli.seed, cli.runs, cli.maxInFlight, cli.target]).toEqual([9, 1, 3, 'ws://staging:1/api/ws']);
  const none = (await loadRunSettings({}, folder({}))).settings;
  expect([none.seed, none.runs, none.maxInFlight]).toEqual([undefined, OPTIONS.runs.default, OPTIONS.maxInFlight.default]);
});

test('paths are relative to the file, a list replaces a list, a single value is a list, durations take units', async () => {
  const dir = folder({ 'contract-gate.config.json': json({ contract: 'api/a.openrpc.json', reportDir: 'out', requestTimeout: '2s', drainLimit: 1500, profile: 'json-rpc', bindings: 'none' }), 'sub/deeper/.keep': '' });
  const { settings, configFile } = await loadRunSettings({}, join(dir, 'sub', 'deeper'));
  expect(configFile).toBe(join(dir, 'contract-gate.config.json'));
  expect(settings.contract).toEqual([join(dir, 'api', 'a.openrpc.json')]);
  expect(settings.reportDir).toBe(join(dir, 'out'));
  expect([settings.requestTimeout, settings.drainLimit, settings.profile, settings.bindings]).toEqual([2000, 1500, 'json-rpc', 'none']);
  const cwd = join(dir, 'sub');
  const overridden = (await loadRunSettings({ contract: ['x.json', 'https://example.com/y.json'] }, cwd)).settings;
  expect(overridden.contract).toEqual([join(cwd, 'x.json'), 'https://example.com/y.json']);
});

test('the file is found from the working directory upward, in the order ts, mjs, json; --config names a file or folder', async () => {
  const dir = folder({ 'contract-gate.config.json': json({ seed: 1 }), 'contract-gate.config.mjs': 'export default { seed: 2 };\n', 'a/b/.keep': '', 'other/contract-gate.config.json': json({ seed: 3 }) });
  expect(findConfigFile(join(dir, 'a', 'b'))).toBe(join(dir, 'contract-gate.config.mjs'));
  expect((await loadRunSettings({}, join(dir, 'a'))).settings.seed).toBe(2);
  expect((await loadRunSettings({ config: 'other' }, dir)).settings.seed).toBe(3);
  expect((await loadRunSettings({ config: join(dir, 'contract-gate.config.json') }, '/')).settings.seed).toBe(1);
  await expect(loadRunSettings({ config: 'missing.json' }, dir)).rejects.toThrow('--config missing.json: no such file');
});

test('a TypeScript configuration loads through tsx; what it exports is checked like JSON', () => {
  const dir = folder({ 'contract-gate.config.ts': "const runs: number = 12;\nexport default { runs, projects: { quick: { runs: 2 } } };\n" });
  expect(loadConfigInChild(join(dir, 'contract-gate.config.ts'))).toEqual({ options: { runs: 12 }, projects: { quick: { runs: 2 } } });
  const bad = folder({ 'contract-gate.config.ts': 'export default { runs: 0 };\n' });
  expect(() => loadConfigInChild(join(bad, 'contract-gate.config.ts'))).toThrow('contract-gate.config.ts: runs must be >= 1');
});

test('an unknown key is an error naming it, with the key it most likely means', async () => {
  expect(await refusal({ 'contract-gate.config.json': json({ reportdir: 'x' }) })).toContain('unknown key reportdir (did you mean reportDir?)');
  expect(await refusal({ 'contract-gate.config.json': json({ contracts: ['a.json'] }) })).toContain('unknown key contracts (did you mean contract?)');
  expect(await refusal({ 'contract-gate.config.json': json({ projects: { ci: { 'max-in-flight': 2 } } }) })).toContain('unknown key projects.ci.max-in-flight (did you mean projects.ci.maxInFlight?)');
  expect(await refusal({ 'contract-gate.config.json': json({ colour: 'red' }) })).toMatch(/unknown key colour; the keys are/);
  expect(didYouMean('requestTimeoutMs', Object.keys(OPTIONS))).toBe('requestTimeout');
});

test('a wrong value names its key; a missing project lists the ones there are', async () => {
  expect(await refusal({ 'contract-gate.config.json': json({ runs: 0 }) })).toContain('runs must be >= 1');
  expect(await refusal({ 'contract-gate.config.json': json({ embeddedAuth: 'open' }) })).toContain('embeddedAuth must be one of "loopback", "gated"');
  expect(await refusal({ 'contract-gate.config.json': json({ projects: { ci: { requestTimeout: '50ms' } } }) })).toContain('projects.ci.requestTimeout must be a duration in ms (or with a unit: 500ms, 5s, 2m) ≥ 100');
  expect(await refusal({ 'contract-gate.config.json': json({ shard: '3/2' }) })).toContain('shard must be i/n with 1 ≤ i ≤ n');
  // A text a duration cannot read is refused in the option's words, not as the schema's first alternative ("must be integer").
  expect(await refusal({ 'contract-gate.config.json': json({ budget: 'soon' }) })).toContain('budget must be a duration in ms (or with a unit: 500ms, 5s, 2m) ≥ 1000, got "soon"');
  expect(await refusal({ 'contract-gate.config.json': json({ projects: { ci: { requestTimeout: '2x' } } }) })).toContain('projects.ci.requestTimeout must be a duration in ms (or with a unit: 500ms, 5s, 2m) ≥ 100, got "2x"');
  expect(await refusal({ 'contract-gate.config.json': json({ budget: 500 }) })).toContain('budget must be >= 1000');
  expect(await refusal({ 'contract-gate.config.json': '{ "seed": ' })).toContain('is not JSON');
  expect(await refusal({ 'contract-gate.config.json': json({ projects: { a: {}, b: {} } }) }, { project: 'c' })).toContain('--project c: ');
  expect(await refusal({ 'contract-gate.config.json': json({ projects: { a: {}, b: {} } }) }, { project: 'c' })).toContain('the projects a, b');
  expect(await refusal({}, { project: 'staging' })).toContain('--project staging: there is no configuration file');
});

test('a literal secret is refused by its key, in the top level or a project, and its value is in no message', async () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ token: SECRET }, 'token would hold a secret'],
    [{ password: SECRET }, 'name the variable with passwordEnv'],
    [{ projects: { staging: { cookie: SECRET } } }, 'projects.staging.cookie would hold a secret'],
    [{ gatewayTicket: SECRET }, 'gatewayTicket would hold a secret'],
    [{ apiCredential: [SECRET] }, 'apiCredential would hold a secret'],
    [{ tokenEnv: SECRET }, 'tokenEnv takes the NAME of an environment variable'],
    [{ projects: { ci: { passwordEnv: `Bearer ${SECRET}` } } }, 'projects.ci.passwordEnv takes the NAME'],
    [{ secretEnv: ['OK_NAME', SECRET] }, 'secretEnv takes the NAME'],
  ];
  for (const [config, expected] of cases) {
    const message = await refusal({ 'contract-gate.config.json': json(config) });
    expect(message, JSON.stringify(Object.keys(config))).toContain(expected);
    expect(message).not.toContain(SECRET);
    expect(message).toContain('[USAGE]');
  }
  // In a module the value may come from the environment at load time: still refused, still not shown.
  process.env['CONFIG_TEST_SECRET'] = SECRET;
  const message = await refusal({ 'contract-gate.config.mjs': "export default { token: process.env.CONFIG_TEST_SECRET };\n" });
  expect(message).toContain('token would hold a secret');
  expect(message).not.toContain(SECRET);
});

test('secret-naming keys with variable names pass', async () => {
  const dir = folder({ 'contract-gate.config.json': json({ tokenEnv: 'GATEWAY_TOKEN', secretEnv: ['A', 'B_2'], projects: { gated: { auth: 'ticket', login: 'basic', user: 'ci', passwordEnv: 'CI_PASSWORD', ticketVia: 'subprotocol' } } }) });
  const { settings } = await loadRunSettings({ project: 'gated' }, dir);
  expect([settings.tokenEnv, settings.secretEnv, settings.passwordEnv, settings.ticketVia]).toEqual(['GATEWAY_TOKEN', ['A', 'B_2'], 'CI_PASSWORD', 'subprotocol']);
});
