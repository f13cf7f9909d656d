import { expect, test } from './helpers/test.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, runCli } from './helpers/cliRunner.js';
import { anyOverlap, JUNK_CHECKS, junkCellSpans } from './helpers/cellSpans.js';
import { scratchDir } from './helpers/scratchDir.js';

// `--target stdio:'<command>'`: the harness spawns the gateway and speaks newline-delimited JSON-RPC on its
// stdin/stdout, as the Hermes TUI spawns tui_gateway.entry: one process per lane, continued from one method run to the next.
test.describe.configure({ mode: 'parallel', timeout: 180_000 });

const SLICE = join(REPO, 'profiles/hermes/contracts/session-lifecycle.openrpc.json');
const serveStdio = (...extra: string[]): string => `stdio:node ${join(REPO, 'bin/contract-gate.js')} serve --stdio --contract ${SLICE} ${extra.join(' ')}`;
const GREP = '@method:session\\.status(?=\\s|$)|@method:\\(connection\\)|@method:topology';

function cells(reportDir: string): Record<string, string> {
  const matrix = JSON.parse(readFileSync(join(reportDir, 'matrix.json'), 'utf8')) as { cells: Array<{ method: string; check: string; status: string; detail: string }> };
  return Object.fromEntries(matrix.cells.map((c) => [`${c.method} × ${c.check}`, c.status === 'n/a' ? `n/a: ${c.detail}` : c.status]));
}

test('a stdio gateway passes the method and connection checks; multi-connection scenarios are n/a with the reason', async () => {
  const reportDir = scratchDir('contract-gate-stdio');
  const run = await runCli(['run', '--target', serveStdio(), '--contract', SLICE, '--grep', GREP, '--seed', '4', '--runs', '10', '--report-dir', reportDir]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.stdout, 'a process the run starts has no connection to authenticate').not.toContain('contract-gate: auth:');
  const got = cells(reportDir);
  expect(got['session.status × params.valid-accepted']).toBe('pass');
  expect(got['(connection) × envelope.batch']).toBe('pass');
  expect(got['topology × skew.predicted-observed']).toBe('pass');
  expect(got['topology × scenario.topology-local']).toBe('n/a: the scenario needs several connections to one gateway at once; the process of a stdio target serves one connection at a time');
  // Each connection is a process of its own, so the checks that send junk frames run on every lane, as on the
  // embedded gateway (a WebSocket target's go one at a time): two of them were under way at once.
  const spans = junkCellSpans(reportDir);
  expect(spans).toHaveLength(JUNK_CHECKS.length);
  expect(anyOverlap(spans), JSON.stringify(spans)).toBe(true);
});

test('a faulty stdio gateway fails the check its fault breaks, and --runner playwright gives every cell the status the engine gives it', async () => {
  const args = (reportDir: string, ...extra: string[]): string[] => ['run', '--target', serveStdio('--fault', 'envelope.jsonrpc-missing'), '--contract', SLICE, '--grep', '@method:session\\.status(?=\\s|$)|@method:\\(connection\\)', '--seed', '4', '--runs', '10', '--report-dir', reportDir, ...extra];
  const engineDir = scratchDir('contract-gate-stdio');
  const playwrightDir = scratchDir('contract-gate-stdio');
  const [engine, playwright] = await Promise.all([runCli(args(engineDir)), runCli(args(playwrightDir, '--runner', 'playwright', '--workers', '2'))]);
  expect(engine.code, engine.stdout + engine.stderr).toBe(1);
  expect(playwright.code, playwright.stdout + playwright.stderr).toBe(1);
  const statuses = cells(engineDir);
  expect(Object.entries(statuses).filter(([, status]) => status === 'fail').map(([cell]) => cell)).toEqual(['session.status × envelope.jsonrpc-version']);
  expect(Object.keys(statuses).length).toBeGreaterThan(10);
  expect(cells(playwrightDir)).toEqual(statuses);
  // The destructive cells go side by side on the two workers too: every worker's connections are processes of its own.
  const spans = junkCellSpans(playwrightDir);
  expect(spans).toHaveLength(JUNK_CHECKS.length);
  expect(anyOverlap(spans), JSON.stringify(spans)).toBe(true);
});

/** The process ids a run's method-run transcripts started and continued (`-- [m1] continues the process … (pid N)`). */
function processesOf(reportDir: string, methods: string[]): { started: number; continued: number; pids: Set<string> } {
  let started = 0;
  let continued = 0;
  const pids = new Set<string>();
  for (const method of methods) {
    const text = readFileSync(join(reportDir, 'transcripts', `${method}.txt`), 'utf8');
    const resumed = /continues the process an earlier connection started \(pid (\d+)\)/.exec(text);
    const kept = /closed \(the process \(pid (\d+)\) was kept running/.exec(text);
    if (resumed) continued++;
    else started++;
    for (const match of [resumed, kept]) if (match?.[1]) pids.add(match[1]);
  }
  return { started, continued, pids };
}

test('method runs continue the process an earlier method run left running; --no-stdio-reuse starts one per method run', async () => {
  const methods = ['session.list', 'session.status', 'session.usage', 'session.title'];
  const grep = methods.map((method) => `@method:${method.replace('.', '\\.')}(?=\\s|$)`).join('|');
  const args = (reportDir: string, ...extra: string[]): string[] => ['run', '--target', serveStdio(), '--contract', SLICE, '--grep', grep, '--seed', '4', '--runs', '10', '--workers', '1', '--report-dir', reportDir, ...extra];
  const reused = scratchDir('contract-gate-stdio');
  const run = await runCli(args(reused));
  expect(run.code, run.stdout + run.stderr).toBe(0);
  const shared = processesOf(reused, methods);
  expect(shared, 'one lane: the first method run starts the process, the others continue it').toMatchObject({ started: 1, continued: methods.length - 1 });
  expect(shared.pids.size).toBe(1);

  const fresh = scratchDir('contract-gate-stdio');
  const apart = await runCli(args(fresh, '--no-stdio-reuse'));
  expect(apart.code, apart.stdout + apart.stderr).toBe(0);
  expect(processesOf(fresh, methods)).toMatchObject({ started: methods.length, continued: 0 });
  expect(cells(fresh), 'the same verdicts either way').toEqual(cells(reused));
});
