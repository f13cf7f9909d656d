import { expect, test } from './helpers/test.js';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findOpenRpcDocuments } from '../../cli/lib/findOpenRpcDocuments.js';
import { starterConfig } from '../../cli/lib/starterFiles.js';
import { loadConfigFile } from '../../src/config/configFile.js';
import { CLI, REPO, type CliResult } from './helpers/cliRunner.js';
import { loadConfigInChild } from './helpers/configInChild.js';
import { scratchDir } from './helpers/scratchDir.js';

const WORKFLOW = join('.github', 'workflows', 'contract-gate.yml');
const DOCUMENT = JSON.stringify({ openrpc: '1.2.6', info: { title: 'Calc', version: '1' }, methods: [] });

/** A repository with contract-gate installed the way npm would (node_modules/contract-gate is this package). */
function repository(files: Record<string, string> = {}): string {
  const dir = scratchDir('contract-gate-init');
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(REPO, join(dir, 'node_modules', 'contract-gate'), 'dir');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function init(dir: string, args: string[] = []): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'init', ...args], { cwd: dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

test('documents are the JSON files with an openrpc member, outside dependencies, build output and reports', () => {
  const dir = repository({
    'api/gateway.openrpc.json': DOCUMENT,
    'specs/v2/calc.json': DOCUMENT,
    'package.json': '{"name": "x"}',
    'broken.json': '{ not json',
    'dist/copy.openrpc.json': DOCUMENT,
    'contract-gate-report/run.openrpc.json': DOCUMENT,
    '.git/x.json': DOCUMENT,
    'vendor/node_modules/y.json': DOCUMENT,
  });
  expect(findOpenRpcDocuments(dir)).toEqual(['api/gateway.openrpc.json', 'specs/v2/calc.json']);
});

test('init writes a configuration naming the documents it found and a workflow using the Action; the next command is printed', async () => {
  const dir = repository({ 'api/gateway.openrpc.json': DOCUMENT });
  const result = await init(dir);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toContain('wrote contract-gate.config.mjs');
  expect(result.stdout).toContain(`wrote ${WORKFLOW}`);
  expect(result.stdout).toContain('found 1 OpenRPC document(s): api/gateway.openrpc.json');
  expect(result.stdout.trim().split('\n').at(-1)).toBe('Next: npx contract-gate run');
  const loaded = await loadConfigFile(join(dir, 'contract-gate.config.mjs'));
  expect(loaded.options).toEqual({ contract: ['api/gateway.openrpc.json'], reportDir: 'contract-gate-report' });
  const workflow = readFileSync(join(dir, WORKFLOW), 'utf8');
  expect(workflow).toContain('uses: ./node_modules/contract-gate');
  expect(workflow).toContain('config: contract-gate.config.mjs');
});

test('with no document, the configuration is for the embedded reference gateway and says so; json and ts load too', async () => {
  const dir = repository();
  const result = await init(dir, ['--format', 'json', '--no-workflow']);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toContain('found no OpenRPC document in this repository: the configuration runs against the embedded reference gateway');
  expect(result.stdout).not.toContain(WORKFLOW);
  const loaded = await loadConfigFile(join(dir, 'contract-gate.config.json'));
  expect(loaded.options).toEqual({ reportDir: 'contract-gate-report' });
  const ts = repository();
  expect((await init(ts, ['--format', 'ts'])).code).toBe(0);
  expect(loadConfigInChild(join(ts, 'contract-gate.config.ts')).options).toEqual({ reportDir: 'contract-gate-report' });
});

test('init never overwrites without --force (exit 2, naming the file), writes nothing then, and overwrites with it', async () => {
  const dir = repository({ [WORKFLOW]: 'mine\n' });
  const refused = await init(dir);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain(`${WORKFLOW} already exists: pass --force to overwrite`);
  expect(() => readFileSync(join(dir, 'contract-gate.config.mjs'))).toThrow();
  expect(readFileSync(join(dir, WORKFLOW), 'utf8')).toBe('mine\n');
  const other = repository({ 'contract-gate.config.json': '{}' });
  const beside = await init(other);
  expect(beside.code).toBe(2);
  expect(beside.stderr).toContain('contract-gate.config.json already configures contract-gate here');
  const forced = await init(dir, ['--force']);
  expect(forced.code, forced.stderr).toBe(0);
  expect(readFileSync(join(dir, WORKFLOW), 'utf8')).toContain('uses: ./node_modules/contract-gate');
});

test("every option the starter configuration shows commented out is one the configuration takes, with the value shown", async () => {
  const dir = repository();
  const starter = starterConfig('mjs', ['api/gateway.openrpc.json']);
  // Uncommented: each `// key: value,` line, and the project example inside `projects: { … }`.
  const uncommented = starter.replace(/^(\s*)\/\/ (\w+: .*,)$/gm, '$1$2');
  expect(uncommented).not.toBe(starter);
  writeFileSync(join(dir, 'contract-gate.config.mjs'), uncommented);
  const loaded = await loadConfigFile(join(dir, 'contract-gate.config.mjs'));
  expect(loaded.options).toMatchObject({ target: 'wss://staging.example.com/api/ws', tokenEnv: 'GATEWAY_TOKEN', seed: 1, budget: 300_000, minCoverage: 90 });
  expect(loaded.projects['staging']).toMatchObject({ maxInFlight: 2, budget: 300_000, tokenEnv: 'STAGING_GATEWAY_TOKEN' });
});
