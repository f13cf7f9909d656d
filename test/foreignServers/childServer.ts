import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export const FOREIGN_DIR = import.meta.dirname;

export interface ChildServer {
  readonly url: string;
  readonly process: ChildProcess;
  /** Resolves with the exit code once the process has ended (whoever ended it). */
  readonly exited: Promise<number | null>;
  stop(): Promise<void>;
}

/** Starts `node test/foreignServers/<script> <args>` and resolves with the URL it prints. */
export function startChildServer(script: string, args: readonly string[]): Promise<ChildServer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(FOREIGN_DIR, script), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    let out = '';
    // A crash is expected of some of these servers; its trace is kept for the error message, not printed.
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^((?:ws|http):\/\/\S+)$/m.exec(out);
      if (!match) return;
      resolve({
        url: match[1] as string,
        process: child,
        exited,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
    child.once('error', reject);
    void exited.then((code) => reject(new Error(`${script} exited ${code} before printing its URL: ${out}${err}`)));
  });
}
