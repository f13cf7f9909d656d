import { spawn } from 'node:child_process';
import { playwrightCli, REPO_ROOT } from './repoPaths.js';

/**
 * What the runner and its workers need no loader for: the suites are the compiled package (ES modules in `dist/`),
 * so Playwright's TypeScript loader for ES modules (on Node 20 a loader thread every import goes through) is left
 * out, about 0.8 s of CPU in every worker and in the runner.
 */
const COMPILED_SUITES_ENV = { PW_DISABLE_TS_ESM: '1' };

/** Runs `playwright test` on the compiled suites with extra environment; resolves with its exit code. */
export function runPlaywright(args: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [playwrightCli(), ...args], { cwd: REPO_ROOT, stdio: 'inherit', env: { ...process.env, ...COMPILED_SUITES_ENV, ...env } });
    const forward = (signal: NodeJS.Signals): void => {
      child.kill(signal);
    };
    process.once('SIGINT', forward);
    process.once('SIGTERM', forward);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? (signal ? 130 : 1));
    });
  });
}
