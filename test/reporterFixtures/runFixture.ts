import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runConfigWith } from '../unit/helpers/runConfigs.js';
import { scratchRoot } from '../unit/helpers/scratchDir.js';
import type { RunConfig } from '../../src/config/runConfig.js';
import { RUN_CONFIG_ENV, writeRunConfig } from '../../src/config/runConfigFile.js';

export const FIXTURE_DIR = fileURLToPath(new URL('.', import.meta.url));
export const FIXTURE_CONFIG = fileURLToPath(new URL('./matrix.config.ts', import.meta.url));
const PLAYWRIGHT_CLI = createRequire(import.meta.url).resolve('@playwright/test/cli');

export interface FixtureRun {
  code: number;
  stdout: string;
  stderr: string;
}

const scratchDirs: string[] = [];

/**
 * A fresh folder outside test-results: a parallel `playwright test` in the same checkout empties test-results when
 * it starts, which would delete a report between its writing and its reading. It is in the run's temporary folder
 * (test/unit/helpers/scratchDir.ts), so a failing test's files stay until the run ends.
 */
export function scratchDir(): string {
  const dir = mkdtempSync(join(scratchRoot(), 'contract-gate-reporter-test-'));
  scratchDirs.push(dir);
  return dir;
}

/** Removes the scratch folders; call it after a passing test only, so a failure leaves its files to look at. */
export function removeScratchDirs(): void {
  for (const dir of scratchDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** The parent test runner's own variables would leak into the child run; reporters must only see what we pass. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(PW_|PLAYWRIGHT_|TEST_|CONTRACT_GATE_|FIXTURE_)/.test(key) || key === 'GITHUB_STEP_SUMMARY' || key === 'FORCE_COLOR') continue;
    env[key] = value;
  }
  return { ...env, FORCE_COLOR: '0', ...extra };
}

/** `playwright test -c matrix.config.ts <args>` in a child process, the way Playwright tests its own reporters. */
export function runFixture(args: string[], env: Record<string, string>): Promise<FixtureRun> {
  return runPlaywright(['test', '-c', FIXTURE_CONFIG, ...args], env);
}

export function runPlaywright(args: string[], env: Record<string, string>): Promise<FixtureRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [PLAYWRIGHT_CLI, ...args], { cwd: FIXTURE_DIR, env: cleanEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}

/** Writes a run configuration for a fixture run (defaults plus `fields`) and returns the environment naming it. */
export function runConfigEnv(fields: Partial<RunConfig> & Pick<RunConfig, 'reportDir'>): Record<string, string> {
  return { [RUN_CONFIG_ENV]: writeRunConfig(runConfigWith(fields)) };
}
