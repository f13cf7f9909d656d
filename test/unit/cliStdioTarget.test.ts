import { expect, test } from './helpers/test.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, runCli } from './helpers/cliRunner.js';
import { scratchDir } from './helpers/scratchDir.js';

// `--target stdio:'<command>'`: the harness spawns the gateway and speaks newline-delimited JSON-RPC on its
// stdin/stdout, one process per connection, as the Hermes TUI spawns tui_gateway.entry.
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
  const got = cells(reportDir);
  expect(got['session.status × params.valid-accepted']).toBe('pass');
  expect(got['(connection) × envelope.batch']).toBe('pass');
  expect(got['topology × skew.predicted-observed']).toBe('pass');
  expect(got['topology × scenario.topology-local']).toBe('n/a: the scenario needs several connections to one gateway; each connection to a stdio target is a process of its own');
});

test('a faulty stdio gateway fails the check its fault breaks', async () => {
  const reportDir = scratchDir('contract-gate-stdio');
  const run = await runCli(['run', '--target', serveStdio('--fault', 'envelope.jsonrpc-missing'), '--contract', SLICE, '--grep', '@method:session\\.status(?=\\s|$)', '--seed', '4', '--runs', '10', '--report-dir', reportDir]);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  const failing = Object.entries(cells(reportDir)).filter(([, status]) => status === 'fail').map(([cell]) => cell);
  expect(failing).toEqual(['session.status × envelope.jsonrpc-version']);
});
