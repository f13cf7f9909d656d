import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const REPO = join(import.meta.dirname, '..', '..', '..');
export const CLI = join(REPO, 'bin', 'contract-gate.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `contract-gate <args>` in a child process (what a CI job does) and collects its output. */
export function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 120_000): Promise<CliResult> {
  return runScript(CLI, args, env, timeoutMs);
}

/** Runs a Node script (a copy of the entry point, say) the way runCli runs the CLI's. */
export function runScript(script: string, args: string[], env: Record<string, string> = {}, timeoutMs = 120_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: REPO, env: { ...process.env, CI: 'true', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

/** Starts `contract-gate serve …` and resolves with its URL once it prints the listening line. */
export function serveCli(args: string[], env: Record<string, string> = {}): Promise<{ url: string; stop: () => void }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { cwd: REPO, env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (ws:\/\/\S+)/.exec(out);
      if (match) resolve({ url: match[1] as string, stop: () => child.kill('SIGTERM') });
    });
    child.on('error', reject);
    child.on('close', (code) => reject(new Error(`serve exited ${code} before listening: ${out}`)));
  });
}
