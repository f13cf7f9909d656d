import { expect, test } from './helpers/test.js';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './helpers/cliRunner.js';
import { scratchDir } from './helpers/scratchDir.js';

// The shell steps of action.yml, run here as the runner would run them: inputs as INPUT_* variables, the token as
// CONTRACT_GATE_TOKEN, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY pointing at files.
const SCRIPT = join(REPO, 'action', 'runGate.sh');
const SLICE = join(REPO, 'profiles/hermes/contracts/session-lifecycle.openrpc.json');
const TOKEN = 'cg-action-token-5c2e88';

test.describe.configure({ mode: 'parallel', timeout: 180_000 });

interface ActionRun {
  code: number;
  log: string;
  outputs: Record<string, string>;
  summary: string;
}

/**
 * The action runs the gate installed in its working directory (`npx --no-install contract-gate`): `dir` becomes a
 * project that installs this checkout, with the links `npm i -D <folder>` makes. Run from the repository itself, npx
 * would install the repository into its own cache and run its prepare script, rebuilding dist/ under the other tests.
 */
function installGateIn(dir: string): void {
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'action-user', private: true, devDependencies: { 'contract-gate': `file:${REPO}` } }));
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(REPO, join(dir, 'node_modules', 'contract-gate'), 'dir');
  symlinkSync(join('..', 'contract-gate', 'bin', 'contract-gate.js'), join(dir, 'node_modules', '.bin', 'contract-gate'));
}

function runAction(inputs: Record<string, string>, dir: string): Promise<ActionRun> {
  if (!existsSync(join(dir, 'node_modules', 'contract-gate'))) installGateIn(dir);
  const outputFile = join(dir, 'github-output');
  const summaryFile = join(dir, 'step-summary');
  writeFileSync(outputFile, '');
  writeFileSync(summaryFile, '');
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [SCRIPT], { cwd: dir, env: { ...process.env, CI: 'true', GITHUB_OUTPUT: outputFile, GITHUB_STEP_SUMMARY: summaryFile, ...inputs } });
    let log = '';
    child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const outputs = Object.fromEntries(
        readFileSync(outputFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      );
      resolve({ code: code ?? -1, log, outputs, summary: readFileSync(summaryFile, 'utf8') });
    });
  });
}

function configIn(dir: string, config: Record<string, unknown>): string {
  const path = join(dir, 'contract-gate.config.json');
  writeFileSync(path, JSON.stringify(config));
  return path;
}

test('a passing gate: outputs verdict pass, 0 failed, 0 flaky and the report folder the configuration names; the summary once; the validator cache written, then only read', async () => {
  const dir = scratchDir('contract-gate-action');
  const cache = join(dir, 'validator-cache');
  const config = configIn(dir, { contract: [SLICE], runs: 3, reportDir: 'gate-report' });
  const bundle = join(REPO, 'dist', 'cli', 'bundle', 'main.cjs');
  const built = statSync(bundle).mtimeMs;
  const inputs = { INPUT_CONFIG: config, INPUT_ARGS: '--grep "@method:session\\.create" --seed 5', CONTRACT_GATE_TOKEN: TOKEN, INPUT_CACHE_DIR: cache };
  const run = await runAction(inputs, dir);
  expect(run.code, run.log).toBe(0);
  expect(statSync(bundle).mtimeMs, 'the installed gate ran as built: nothing rebuilt the package').toBe(built);
  const { 'cache-written': written, ...outputs } = run.outputs;
  expect(outputs).toEqual({ verdict: 'pass', failed: '0', flaky: '0', 'report-path': join(dir, 'gate-report') });
  expect(Number(written), 'a fresh cache: the run wrote its validators').toBeGreaterThan(0);
  expect(readdirSync(cache).filter((name) => name.endsWith('.cjs'))).toHaveLength(Number(written));
  expect(run.summary.match(/Contract gate PASS/g)).toHaveLength(1);
  expect(run.log).toContain('seed 5;');
  expect(run.log).not.toContain(TOKEN);
  expect(readFileSync(join(dir, 'gate-report', 'run-config.json'), 'utf8')).toContain('"tokenEnv": "CONTRACT_GATE_TOKEN"');
  // The next run of the same gate loads every validator: nothing changed, so the Action saves no cache.
  const again = await runAction(inputs, dir);
  expect([again.code, again.outputs['cache-written']], again.log).toEqual([0, '0']);
});

test('a failing gate: exit 1, verdict fail, the failed cells counted; the project and contract inputs are passed on', async () => {
  const dir = scratchDir('contract-gate-action');
  const config = configIn(dir, { runs: 3, reportDir: 'ignored', projects: { faulty: { fault: ['params.unknown-keys-accepted'], reportDir: 'faulty-report' } } });
  const run = await runAction({ INPUT_CONFIG: config, INPUT_PROJECT: 'faulty', INPUT_CONTRACT: `${SLICE}\n`, INPUT_ARGS: "--grep '@method:session\\.set_hidden'" }, dir);
  expect(run.code, run.log).toBe(1);
  expect(run.outputs['verdict']).toBe('fail');
  expect(run.outputs['report-path']).toBe(join(dir, 'faulty-report'));
  const matrix = JSON.parse(readFileSync(join(dir, 'faulty-report', 'matrix.json'), 'utf8')) as { cells: Array<{ method: string; check: string; status: string }> };
  expect(matrix.cells.find((cell) => cell.method === 'session.set_hidden' && cell.check === 'params.unknown-key-rejected')?.status).toBe('fail');
  expect(run.outputs['failed']).toBe(String(matrix.cells.filter((cell) => cell.status === 'fail' || cell.status === 'stale').length));
  expect(run.summary).toContain('FAIL');
});

test('a usage error: no matrix, verdict error, the exit code of the gate', async () => {
  const dir = scratchDir('contract-gate-action');
  const run = await runAction({ INPUT_CONFIG: configIn(dir, { runz: 3 }) }, dir);
  expect(run.code).toBe(2);
  expect(run.log).toContain('unknown key runz (did you mean runs?)');
  expect(run.outputs).toEqual({ verdict: 'error', failed: '0', flaky: '0', 'report-path': '', 'cache-written': '0' });
});
