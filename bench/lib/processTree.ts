import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface TreeRun {
  readonly code: number;
  readonly wallMs: number;
  /** Highest sum of the resident set sizes of the process and all its descendants, sampled every 100 ms. */
  readonly peakTreeRssMb: number;
  /** Highest resident set size of any one process of the tree (the CLI, a worker, the gateway host). */
  readonly peakProcessRssMb: number;
  /** CPU time (user + system) of every process of the tree, summed, as last sampled (Linux: /proc/<pid>/stat). */
  readonly cpuMs: number;
  /**
   * CPU time of the tree counted exactly, short-lived processes included (which the samples miss): what this process's
   * reaped children used during the run (cutime + cstime of /proc/self/stat). Only meaningful for runs one at a time.
   */
  readonly reapedCpuMs: number;
  readonly stdout: string;
}

const TICK_MS = 10;

/** utime + stime of a process, in milliseconds (USER_HZ is 100 on Linux). */
export function cpuOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}

/** cutime + cstime of this process: the CPU its reaped children (and theirs) used, in milliseconds. */
export function reapedChildrenCpu(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) * TICK_MS;
}

/** The highest resident set size the process has had so far, in MiB (Linux: VmHWM of /proc/<pid>/status). */
export function peakRssMbOf(pid: number): number | undefined {
  try {
    const kb = /^VmHWM:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
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

function treeOf(root: number): Array<{ pid: number; rssKb: number }> {
  const table = processTable();
  const children = new Map<number, number[]>();
  for (const [pid, { ppid }] of table) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const tree: Array<{ pid: number; rssKb: number }> = [];
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    tree.push({ pid, rssKb: table.get(pid)?.rssKb ?? 0 });
    stack.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** Runs `node <args>` and samples the memory of its whole process tree (the CLI, Playwright's runner and workers). */
export function runMeasured(args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<TreeRun> {
  const started = performance.now();
  const reapedBefore = reapedChildrenCpu();
  const child = spawn(process.execPath, [...args], { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let peakKb = 0;
  let peakProcessKb = 0;
  const cpu = new Map<number, number>();
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const sample = (): void => {
    if (child.pid === undefined) return;
    const tree = treeOf(child.pid);
    peakKb = Math.max(peakKb, tree.reduce((sum, one) => sum + one.rssKb, 0));
    for (const { pid, rssKb } of tree) {
      peakProcessKb = Math.max(peakProcessKb, rssKb);
      const used = cpuOf(pid);
      if (used !== undefined) cpu.set(pid, used);
    }
  };
  const sampler = setInterval(sample, 100);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(sampler);
      const cpuMs = [...cpu.values()].reduce((sum, one) => sum + one, 0);
      const reapedCpuMs = reapedChildrenCpu() - reapedBefore;
      resolve({ code: code ?? -1, wallMs: performance.now() - started, peakTreeRssMb: peakKb / 1024, peakProcessRssMb: peakProcessKb / 1024, cpuMs, reapedCpuMs, stdout });
    });
  });
}
