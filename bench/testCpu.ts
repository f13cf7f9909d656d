/**
 * Where the CPU of a run of the harness's tests goes: the run (`playwright test -c playwright.unit.config.ts`, or
 * the files given) with every Node process accounted (bench/lib/testCpuHook.mjs), then three tables: the machine's
 * CPU by kind of process, by test file, and the costliest tests. A test's CPU is its worker's and what the worker
 * reaped meanwhile (the CLI runs, servers and nested Playwright runs it started), so a file's figure is what running
 * it costs, wherever the work happened. Run it as CI does for CI's numbers (`CI=true`: four workers and a fifth for
 * the files that mostly wait). Writes bench-results/test-cpu.md and prints it. Linux only (/proc).
 *
 *   CI=true npm run bench:tests [-- test files or playwright options]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { reapedChildrenCpu } from './lib/processTree.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const HOOK = join(REPO, 'bench', 'lib', 'testCpuHook.mjs');
const PLAYWRIGHT = join(REPO, 'node_modules', '@playwright', 'test', 'cli.js');
const TOP_TESTS = 15;

interface ProcessRecord {
  pid: number;
  ppid: number;
  argv: string;
  user: number;
  system: number;
}

interface TestRecord {
  testId: string;
  own: number;
  withChildren: number;
  durationMs: number;
}

interface JsonSuite {
  file?: string;
  specs?: Array<{ id: string; title: string; file?: string }>;
  suites?: JsonSuite[];
}

/** What kind of process a command line is, for the by-process table. */
function processKind(argv: string): string {
  const command = /contract-gate(?:\.js)? (\w[\w-]*)/.exec(argv)?.[1];
  if (command) return `contract-gate ${command}`;
  if (argv.includes('workerProcessEntry')) return 'Playwright worker';
  if (/(playwright|cli\.js) (test|merge-reports)/.test(argv)) return 'Playwright runner';
  if (/GatewayHost|gatewayHostProcess/.test(argv)) return 'gateway host process';
  if (/npm(-cli)?(\.js)? /.test(argv)) return 'npm';
  const script = argv.split(' ')[0] ?? '';
  return script.split('/').slice(-2).join('/') || '(node)';
}

function readRecords<T>(dir: string, prefix: string): T[] {
  return readdirSync(dir)
    .filter((name) => name.startsWith(`${prefix}-`))
    .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as T));
}

/** Test id → "file › title", from Playwright's JSON report. */
function titlesOf(reportPath: string): Map<string, { file: string; title: string }> {
  const titles = new Map<string, { file: string; title: string }>();
  const walk = (suite: JsonSuite, file: string | undefined): void => {
    for (const spec of suite.specs ?? []) titles.set(spec.id, { file: spec.file ?? file ?? '?', title: spec.title });
    for (const child of suite.suites ?? []) walk(child, suite.file ?? file);
  };
  const report = JSON.parse(readFileSync(reportPath, 'utf8')) as { suites: JsonSuite[] };
  for (const suite of report.suites) walk(suite, suite.file);
  return titles;
}

const seconds = (value: number): string => value.toFixed(1);

function table(header: string[], rows: string[][]): string[] {
  return [`| ${header.join(' | ')} |`, `|${header.map((_, i) => (i === 0 ? '---' : '--:')).join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)];
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'contract-gate-test-cpu-'));
  const report = join(dir, 'report.json');
  const args = process.argv.slice(2).filter((arg) => arg !== '--');
  const reapedBefore = reapedChildrenCpu();
  const started = performance.now();
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, [PLAYWRIGHT, 'test', '-c', 'playwright.unit.config.ts', '--reporter=json,dot', ...args], {
      cwd: REPO,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --import ${HOOK}`.trim(), TEST_CPU_DIR: dir, PLAYWRIGHT_JSON_OUTPUT_NAME: report },
    });
    child.on('error', reject);
    child.on('close', (exit) => resolve(exit ?? -1));
  });
  const wallS = (performance.now() - started) / 1000;
  const machineS = (reapedChildrenCpu() - reapedBefore) / 1000;

  const processes = readRecords<ProcessRecord>(dir, 'process');
  const tests = readRecords<TestRecord>(dir, 'test');
  const titles = titlesOf(report);
  rmSync(dir, { recursive: true, force: true });
  // Tests of nested Playwright runs are recorded too; their CPU is already in the test that started the run.
  const ours = tests.flatMap((test) => {
    const title = titles.get(test.testId);
    return title ? [{ ...test, ...title }] : [];
  });

  const kinds = new Map<string, { count: number; user: number; system: number }>();
  for (const record of processes) {
    const kind = kinds.get(processKind(record.argv)) ?? { count: 0, user: 0, system: 0 };
    kind.count += 1;
    kind.user += record.user;
    kind.system += record.system;
    kinds.set(processKind(record.argv), kind);
  }
  const files = new Map<string, { tests: number; cpu: number; own: number; wallMs: number }>();
  for (const test of ours) {
    const file = files.get(test.file) ?? { tests: 0, cpu: 0, own: 0, wallMs: 0 };
    file.tests += 1;
    file.cpu += test.withChildren;
    file.own += test.own;
    file.wallMs += test.durationMs;
    files.set(test.file, file);
  }
  const nodeS = processes.reduce((sum, record) => sum + record.user + record.system, 0);
  const inTests = ours.reduce((sum, test) => sum + test.withChildren, 0);
  const lines = [
    '# CPU of a run of the harness\'s tests',
    '',
    `\`playwright test -c playwright.unit.config.ts ${args.join(' ')}\`${process.env['CI'] ? ' with CI set' : ''}: exit ${code}, ${seconds(wallS)} s wall, ${seconds(machineS)} s of CPU in all (every process the run started, Chromium and Python included), ${seconds(nodeS)} s of it in ${processes.length} Node processes; ${ours.length} tests recorded, ${seconds(inTests)} s of CPU inside them (with their children).`,
    ...(ours.length === 0 ? ['', 'No test was recorded: Playwright\'s worker messages may have changed (bench/lib/testCpuHook.mjs).'] : []),
    '',
    '## By kind of process',
    '',
    ...table(
      ['process', 'count', 'user s', 'system s'],
      [...kinds].sort((a, b) => b[1].user + b[1].system - (a[1].user + a[1].system)).map(([kind, k]) => [kind, String(k.count), seconds(k.user), seconds(k.system)]),
    ),
    '',
    '## By test file (CPU inside its tests, children included)',
    '',
    ...table(
      ['file', 'tests', 'CPU s', 'of it in the worker s', 'test time s'],
      [...files].sort((a, b) => b[1].cpu - a[1].cpu).map(([file, f]) => [file, String(f.tests), seconds(f.cpu), seconds(f.own), seconds(f.wallMs / 1000)]),
    ),
    '',
    `## The ${TOP_TESTS} costliest tests`,
    '',
    ...table(
      ['test', 'CPU s', 'test time s'],
      [...ours].sort((a, b) => b.withChildren - a.withChildren).slice(0, TOP_TESTS).map((test) => [`${test.file} › ${test.title.slice(0, 110)}`, seconds(test.withChildren), seconds(test.durationMs / 1000)]),
    ),
  ];
  const text = `${lines.join('\n')}\n`;
  mkdirSync(join(REPO, 'bench-results'), { recursive: true });
  writeFileSync(join(REPO, 'bench-results', 'test-cpu.md'), text);
  process.stdout.write(`${text}\nwritten to ${join(REPO, 'bench-results', 'test-cpu.md')}\n`);
  process.exitCode = code === 0 ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
