import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { REPO, type CliResult } from './cliRunner.js';

/**
 * The package as a user gets it: `npm pack` of the repository, installed into an empty folder. One tarball per test
 * run, whichever worker asks first (the others wait for it): the tests that install it share it.
 */

export const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The Playwright runner that started this worker, with its start time where the system says it (a pid is reused). */
function runnerKey(): string {
  const stat = `/proc/${process.ppid}/stat`;
  const started = existsSync(stat) ? readFileSync(stat, 'utf8').split(') ')[1]?.split(' ')[19] : undefined;
  return started ? `${process.ppid}-${started}` : String(process.ppid);
}

async function packOnce(): Promise<string> {
  const dir = join(tmpdir(), `contract-gate-pack-${runnerKey()}`);
  const done = join(dir, 'tarball');
  const failed = join(dir, 'failed');
  try {
    mkdirSync(dir);
  } catch {
    // Another worker packs: wait for its tarball (a bound on a hang, not a time the test depends on).
    for (let waited = 0; waited < 240; waited++) {
      if (existsSync(done)) return join(dir, readFileSync(done, 'utf8'));
      if (existsSync(failed)) throw new Error(`npm pack failed in another worker: ${readFileSync(failed, 'utf8')}`);
      await sleep(500);
    }
    throw new Error(`no tarball appeared in ${dir}`);
  }
  try {
    // dist/ is built already (the tests need it); packing without scripts keeps it from being rebuilt under other tests.
    const name = execFileSync(NPM, ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], { cwd: REPO, encoding: 'utf8' }).trim().split('\n').at(-1) as string;
    writeFileSync(done, name);
    return join(dir, name);
  } catch (error) {
    writeFileSync(failed, String(error));
    throw error;
  }
}

let packed: Promise<string> | undefined;

/** The path of this run's tarball of the package. */
export function packedTarball(): Promise<string> {
  packed ??= packOnce();
  return packed;
}

/** `npm install` from the npm cache that `npm ci` filled, without install scripts. */
export function npmInstall(dir: string, extra: readonly string[] = []): void {
  execFileSync(NPM, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', ...extra], { cwd: dir, stdio: 'ignore' });
}

/** Runs a binary of the folder's node_modules (`npm exec --no`: never downloads), as a user's CI job would; an undefined variable is unset. */
export function npmExec(dir: string, args: readonly string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const merged: Record<string, string | undefined> = { ...process.env, CI: 'true', ...env };
    for (const [name, value] of Object.entries(merged)) if (value === undefined) delete merged[name];
    const child = spawn(NPM, ['exec', '--no', '--', ...args], { cwd: dir, env: merged });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
