/**
 * Where the CPU goes: a default `contract-gate run` and the gateway benchmark, every process of each profiled
 * (bench/lib/cpuProfileHook.mjs through NODE_OPTIONS, since Node refuses --cpu-prof there), then the ten
 * functions with the most self time in the harness and in the gateway, and self time per owner (harness, gateway,
 * each package, node internals, GC). Writes bench-results/profile.md and prints it.
 *
 *   npx tsx bench/profile.ts [-- extra `run` arguments, e.g. --contract profiles/hermes/contracts/session-lifecycle.openrpc.json]
 *
 * PROFILE_GATEWAY_SECONDS sets the seconds per benchmark cell (default 2).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ownerTable, summarizeProfiles, topFunctions } from './lib/cpuProfiles.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(REPO, 'bench-results');
const HOOK = join(REPO, 'bench', 'lib', 'cpuProfileHook.mjs');
const TSX = join(REPO, 'node_modules', 'tsx', 'dist', 'cli.mjs');

function profiled(args: string[], profileDir: string): Promise<{ code: number; wallMs: number }> {
  rmSync(profileDir, { recursive: true, force: true });
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: REPO,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --import ${HOOK}`.trim(), CPU_PROFILE_DIR: profileDir },
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, wallMs: performance.now() - started }));
  });
}

function section(title: string, profileDir: string, wallMs: number, owners: string[]): string[] {
  const summary = summarizeProfiles(profileDir);
  const cpuMs = summary.processes.reduce((sum, p) => sum + p.cpuMs, 0);
  const lines = [`## ${title}`, '', `${summary.processes.length} processes, ${(wallMs / 1000).toFixed(1)} s wall, ${(cpuMs / 1000).toFixed(1)} s busy CPU (sampled).`, ''];
  lines.push('| process | busy CPU s |', '|---|---:|', ...summary.processes.sort((a, b) => b.cpuMs - a.cpuMs).map((p) => `| ${p.file} | ${(p.cpuMs / 1000).toFixed(1)} |`), '');
  lines.push('Self time per owner:', '', ...ownerTable(summary), '');
  for (const owner of owners) lines.push(`Top ten self-time functions, ${owner}:`, '', ...topFunctions(summary, owner), '');
  return lines;
}

async function main(): Promise<void> {
  const extra = process.argv.slice(2).filter((arg) => arg !== '--');
  mkdirSync(OUT, { recursive: true });
  const runDir = join(OUT, 'profile-run');
  const run = await profiled([join(REPO, 'bin', 'contract-gate.js'), 'run', '--seed', '1', '--report-dir', join(runDir, 'report'), ...extra], join(runDir, 'cpu'));
  const gatewayDir = join(OUT, 'profile-gateway');
  const gateway = await profiled([TSX, join(REPO, 'bench', 'gateway.ts'), process.env['PROFILE_GATEWAY_SECONDS'] ?? '2'], join(gatewayDir, 'cpu'));
  const lines = [
    '# CPU profile',
    '',
    `Sampled every 0.5 ms in every process; self time is the time a function was on top of the stack. Run: \`contract-gate run --seed 1 ${extra.join(' ')}\` (exit ${run.code}); gateway benchmark: \`bench/gateway.ts\` (exit ${gateway.code}).`,
    '',
    ...section('Default run', join(runDir, 'cpu'), run.wallMs, ['harness', 'gateway']),
    ...section('Gateway benchmark', join(gatewayDir, 'cpu'), gateway.wallMs, ['gateway', 'harness']),
  ];
  const text = `${lines.join('\n')}\n`;
  writeFileSync(join(OUT, 'profile.md'), text);
  process.stdout.write(`\n${text}\nwritten to ${join(OUT, 'profile.md')}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
