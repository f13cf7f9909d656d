import { spawn } from 'node:child_process';
import { playwrightCli, REPO_ROOT } from './repoPaths.js';

/** Runs `playwright test` with extra environment; resolves with its exit code. */
export function runPlaywright(args: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [playwrightCli(), ...args], { cwd: REPO_ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
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
