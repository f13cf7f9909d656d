import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { REPO, type CliResult } from './cliRunner.js';
import { scratchRoot } from './scratchDir.js';

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

/**
 * Makes something once per test run, whichever worker asks first: the others wait for the first one's answer (the
 * text it leaves in `<dir>/done`). `make` gets the folder to work in and returns that answer.
 */
async function oncePerRun(name: string, make: (dir: string) => Promise<string> | string): Promise<string> {
  const dir = join(scratchRoot(), `contract-gate-${name}-${runnerKey()}`);
  const done = join(dir, 'done');
  const failed = join(dir, 'failed');
  try {
    mkdirSync(dir);
  } catch {
    // Another worker makes it: wait for its answer (a bound on a hang, not a time the test depends on).
    for (let waited = 0; waited < 480; waited++) {
      if (existsSync(done)) return readFileSync(done, 'utf8');
      if (existsSync(failed)) throw new Error(`${name} failed in another worker: ${readFileSync(failed, 'utf8')}`);
      await sleep(500);
    }
    throw new Error(`${name}: nothing appeared in ${dir}`);
  }
  try {
    const answer = await make(dir);
    writeFileSync(done, answer);
    return answer;
  } catch (error) {
    writeFileSync(failed, String(error));
    throw error;
  }
}

let packed: Promise<string> | undefined;

/** The path of this run's tarball of the package. */
export function packedTarball(): Promise<string> {
  packed ??= oncePerRun('pack', (dir) => {
    // dist/ is built already (the tests need it); packing without scripts keeps it from being rebuilt under other tests.
    const name = execFileSync(NPM, ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], { cwd: REPO, encoding: 'utf8' }).trim().split('\n').at(-1) as string;
    return join(dir, name);
  });
  return packed;
}

let installed: Promise<string> | undefined;

/**
 * What a new user has after `npm i <tarball>` (production dependencies only) in an empty project: the folder, made
 * once per test run. The tests that need an installed package share it (a second install of the same tree would
 * cost some ten seconds of CPU): the newcomer path runs its commands in it, and the user-checks example links to its
 * node_modules (`linkInstalledPackage`).
 */
export function installedPackage(): Promise<string> {
  installed ??= oncePerRun('installed', async (dir) => {
    const tarball = await packedTarball();
    const project = join(dir, 'empty-project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'empty-project', private: true }));
    npmInstall(project, ['--omit=dev', tarball]);
    return project;
  });
  return installed;
}

/**
 * Gives `dir` the installed package's node_modules (a link), after checking that it holds every dependency the
 * folder's package.json names: a dependency the package does not bring would need an install of its own.
 */
export async function linkInstalledPackage(dir: string): Promise<void> {
  const modules = join(await installedPackage(), 'node_modules');
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  const missing = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter((name) => !existsSync(join(modules, name, 'package.json')));
  if (missing.length > 0) throw new Error(`${dir}/package.json names ${missing.join(', ')}, which the installed package does not bring: install them in that test`);
  symlinkSync(modules, join(dir, 'node_modules'), 'dir');
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
