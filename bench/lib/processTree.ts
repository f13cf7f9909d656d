import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface TreeRun {
  readonly code: number;
  readonly wallMs: number;
  /** Highest sum of the resident set sizes of the process and all its descendants, sampled every 100 ms. */
  readonly peakTreeRssMb: number;
  readonly stdout: string;
}

/** Parent pid and resident set size (kB) of every process, from /proc (Linux). */
function processTable(): Map<number, { ppid: number; rssKb: number }> {
  const table = new Map<number, { ppid: number; rssKb: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1] ?? -1);
      const rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      table.set(Number(entry), { ppid, rssKb });
    } catch {
      // The process ended while the table was read.
    }
  }
  return table;
}

function treeRssKb(root: number): number {
  const table = processTable();
  const children = new Map<number, number[]>();
  for (const [pid, { ppid }] of table) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  let total = 0;
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    total += table.get(pid)?.rssKb ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Runs `node <args>` and samples the memory of its whole process tree (the CLI, Playwright's runner and workers). */
export function runMeasured(args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<TreeRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [...args], { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let peakKb = 0;
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const sampler = setInterval(() => {
    if (child.pid !== undefined) peakKb = Math.max(peakKb, treeRssKb(child.pid));
  }, 100);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(sampler);
      resolve({ code: code ?? -1, wallMs: performance.now() - started, peakTreeRssMb: peakKb / 1024, stdout });
    });
  });
}
