/**
 * How a default run grows with the contract: `contract-gate run` on generated documents of 30, 100, 300 and 1,000
 * methods (bench/lib/generatedContract.ts), wall time and peak memory of the whole process tree (CLI, Playwright
 * runner and workers), and the cost per method relative to the smallest document, measured one after the other in
 * this run. Writes bench-results/growth.md.
 *
 *   npx tsx bench/growth.ts [sizes…]     (GROWTH_RUNS: valid payloads per method, default the run's default)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeGeneratedContract } from './lib/generatedContract.js';
import { runMeasured, type TreeRun } from './lib/processTree.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(REPO, 'bench-results');
const SIZES = process.argv.slice(2).map(Number).filter((n) => n > 0);
const sizes = SIZES.length > 0 ? SIZES : [30, 100, 300, 1000];
const runs = process.env['GROWTH_RUNS'];

type GrowthRow = TreeRun & { methods: number; checks: number };

async function measure(methods: number): Promise<GrowthRow> {
  const contract = writeGeneratedContract(join(OUT, 'growth'), methods);
  const args = [join(REPO, 'bin', 'contract-gate.js'), 'run', '--contract', contract, '--seed', '1', '--report-dir', join(OUT, 'growth', `report-${methods}`), ...(runs ? ['--runs', runs] : [])];
  const run = await runMeasured(args, { cwd: REPO, env: { CI: 'true' } });
  const checks = Number(/(\d+) checks in/.exec(run.stdout)?.[1] ?? NaN);
  if (run.code !== 0) process.stderr.write(`growth: the run on ${methods} methods exited ${run.code}\n${run.stdout.slice(-2_000)}\n`);
  return { ...run, methods, checks };
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const rows: GrowthRow[] = [];
  for (const size of sizes) {
    const row = await measure(size);
    rows.push(row);
    process.stdout.write(`growth: ${size} methods, ${row.checks} checks, ${(row.wallMs / 1000).toFixed(1)} s, peak ${row.peakTreeRssMb.toFixed(0)} MB (exit ${row.code})\n`);
  }
  const base = rows[0];
  if (!base) return;
  const perMethod = (row: GrowthRow): number => row.wallMs / row.methods;
  const lines = [
    `# Growth of a default run (CI=true, 2 workers${runs ? `, --runs ${runs}` : ''}; one run after the other, same machine)`,
    '',
    '| methods | checks | wall s | wall per method ms | per method vs smallest | peak RSS of the process tree MB | MB per extra method |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map((row) => {
      const extra = row.methods > base.methods ? ((row.peakTreeRssMb - base.peakTreeRssMb) / (row.methods - base.methods)).toFixed(2) : '–';
      return `| ${row.methods} | ${row.checks} | ${(row.wallMs / 1000).toFixed(1)} | ${perMethod(row).toFixed(0)} | ${(perMethod(row) / perMethod(base)).toFixed(2)}× | ${row.peakTreeRssMb.toFixed(0)} | ${extra} |`;
    }),
    '',
    'Near-linear means the wall time per method stays flat or falls (fixed start-up spread over more methods) and memory grows by a bounded amount per method.',
  ];
  const text = `${lines.join('\n')}\n`;
  writeFileSync(join(OUT, 'growth.md'), text);
  process.stdout.write(`\n${text}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
