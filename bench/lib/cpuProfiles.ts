import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The parts of a V8 `.cpuprofile` that self time needs. */
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }>;
  samples?: number[];
  timeDeltas?: number[];
  startTime: number;
  endTime: number;
}

export interface FunctionTime {
  /** `name (file:line)`, the file relative to the repository. */
  readonly label: string;
  /** Where it lives: `gateway`, `harness` (core, fuzz, src, fixtures, cli, reporters), a package, node or V8. */
  readonly owner: string;
  selfMs: number;
}

export interface ProfileSummary {
  readonly processes: Array<{ file: string; cpuMs: number }>;
  readonly functions: FunctionTime[];
  /** Self time per owner (gateway, harness, each package, node internals, GC, idle). */
  readonly owners: Map<string, number>;
}

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const HARNESS_FOLDERS = ['core', 'fuzz', 'src', 'fixtures', 'cli', 'reporters', 'suites', 'bench'];

function ownerOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node';
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const modules = path.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = path.slice(modules + '/node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? 'package');
  }
  if (!path.startsWith(REPO)) return 'other';
  const relative = path.slice(REPO.length).replace(/^dist\//, '');
  const top = relative.split('/')[0] ?? '';
  if (top === 'gateway') return 'gateway';
  return HARNESS_FOLDERS.includes(top) ? 'harness' : 'other';
}

function labelOf(url: string, functionName: string, lineNumber: number): string {
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const short = path.startsWith(REPO) ? path.slice(REPO.length) : path.replace(/^.*\/node_modules\//, '');
  return url === '' ? functionName : `${functionName || '(anonymous)'} (${short}:${lineNumber + 1})`;
}

/** Sums self time per function over every profile in `dir` (one file per process). */
export function summarizeProfiles(dir: string): ProfileSummary {
  const byLabel = new Map<string, FunctionTime>();
  const owners = new Map<string, number>();
  const processes: Array<{ file: string; cpuMs: number }> = [];
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    const selfMs = new Map<number, number>();
    const samples = profile.samples ?? [];
    const deltas = profile.timeDeltas ?? [];
    // The time between a sample and the next one belongs to the function sampled.
    for (let i = 0; i < samples.length; i++) {
      const id = samples[i] as number;
      selfMs.set(id, (selfMs.get(id) ?? 0) + (deltas[i + 1] ?? 0) / 1000);
    }
    let busy = 0;
    for (const node of profile.nodes) {
      const ms = selfMs.get(node.id) ?? 0;
      if (ms === 0) continue;
      const { functionName, url, lineNumber } = node.callFrame;
      const owner = ownerOf(url, functionName);
      if (owner !== '(idle)') busy += ms;
      owners.set(owner, (owners.get(owner) ?? 0) + ms);
      const label = labelOf(url, functionName, lineNumber);
      const entry = byLabel.get(label) ?? { label, owner, selfMs: 0 };
      entry.selfMs += ms;
      byLabel.set(label, entry);
    }
    processes.push({ file, cpuMs: busy });
  }
  return { processes, functions: [...byLabel.values()].sort((a, b) => b.selfMs - a.selfMs), owners };
}

/** The top `count` self-time functions of one owner, as Markdown table rows. */
export function topFunctions(summary: ProfileSummary, owner: string, count = 10): string[] {
  const total = [...summary.owners.entries()].filter(([name]) => name !== '(idle)').reduce((sum, [, ms]) => sum + ms, 0);
  const rows = summary.functions.filter((f) => f.owner === owner).slice(0, count);
  return [
    '| self ms | % of busy CPU | function |',
    '|---:|---:|---|',
    ...rows.map((f) => `| ${f.selfMs.toFixed(0)} | ${((100 * f.selfMs) / total).toFixed(1)} | \`${f.label.replace(/\|/g, '\\|')}\` |`),
  ];
}

/** Self time per owner (harness, gateway, each package, node, GC), busiest first. */
export function ownerTable(summary: ProfileSummary, count = 12): string[] {
  const busy = [...summary.owners.entries()].filter(([name]) => name !== '(idle)').sort((a, b) => b[1] - a[1]);
  const total = busy.reduce((sum, [, ms]) => sum + ms, 0);
  return ['| where | self ms | % of busy CPU |', '|---|---:|---:|', ...busy.slice(0, count).map(([name, ms]) => `| ${name} | ${ms.toFixed(0)} | ${((100 * ms) / total).toFixed(1)} |`)];
}
