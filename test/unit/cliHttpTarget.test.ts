import { expect, test } from './helpers/test.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startGateway } from '../../gateway/index.js';
import { REPO, runCli } from './helpers/cliRunner.js';
import { scratchDir } from './helpers/scratchDir.js';

// `--target http(s)://…`: every request is a POST whose body is its answer, so nothing arrives unasked. The checks of
// a request and its answer run over it; what needs events (a live session announced by session.info, the scenarios)
// is n/a at once, saying why, instead of waiting out a timeout per attempt.
test.describe.configure({ mode: 'parallel', timeout: 120_000 });

const SLICE = join(REPO, 'profiles/hermes/contracts/session-lifecycle.openrpc.json');
/** The hooks extension, which `contract-gate serve` loads too: its scenarios subscribe over a POST, then wait for events. */
const HOOKS = join(REPO, 'profiles/hermes/contracts/session-hooks.openrpc.json');
/** A method with a binding of its own, one bound by the rules' `otherMethods` (it takes no session), one needing a live session. */
const METHODS = '@method:spawn_tree\\.load(?=\\s|$)|@method:session\\.list(?=\\s|$)|@method:session\\.status(?=\\s|$)';
const GREP = `${METHODS}|@method:\\(connection\\)|@method:topology|@method:hooks`;

function cells(reportDir: string): Record<string, string> {
  const matrix = JSON.parse(readFileSync(join(reportDir, 'matrix.json'), 'utf8')) as { cells: Array<{ method: string; check: string; status: string; detail: string }> };
  return Object.fromEntries(matrix.cells.map((c) => [`${c.method} × ${c.check}`, c.status === 'n/a' ? `n/a: ${c.detail}` : c.status]));
}

test("the gateway's HTTP endpoint passes the connection checks and a method's checks over POSTs; what needs events is n/a at once", async () => {
  const gateway = await startGateway({ contractPaths: [SLICE, HOOKS] });
  const reportDir = scratchDir('contract-gate-http');
  try {
    // Two of the three methods are reached: a floor of 50% is met.
    const run = await runCli(['run', '--target', gateway.httpUrl, '--contract', SLICE, '--grep', GREP, '--seed', '4', '--runs', '10', '--min-coverage', '50', '--report-dir', reportDir]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const got = cells(reportDir);
    for (const check of ['parse-error', 'unknown-method', 'invalid-request', 'id-types', 'batch', 'error-hygiene', 'oversized-frame']) expect(got[`(connection) × envelope.${check}`], check).toBe('pass');
    expect(got['spawn_tree.load × params.valid-accepted']).toBe('pass');
    expect(got['spawn_tree.load × result.schema']).toBe('pass');
    // The rules bind session_id where a payload carries one: session.list takes none, so it needs no live session.
    expect(got['session.list × params.valid-accepted']).toBe('pass');
    expect(got['session.list × result.schema']).toBe('pass');
    expect(got['session.status × params.valid-accepted']).toMatch(/^n\/a: .*an HTTP target sends no events/);
    // The live session it needs cannot be announced over HTTP: tried once for the method run, not once per case.
    const creates = readFileSync(join(reportDir, 'transcripts', 'session.status.txt'), 'utf8').match(/"method":"session\.create"/g) ?? [];
    expect(creates).toHaveLength(1);
    expect(got['topology × scenario.topology-local']).toBe('n/a: the scenario needs events over a WebSocket; the target is an HTTP endpoint');
    // The hook scenarios wait for session.info and the hook events: n/a at once, not a failure after each wait.
    const hooks = Object.entries(got).filter(([cell]) => cell.startsWith('hooks × '));
    expect(hooks.length).toBe(5);
    for (const [cell, status] of hooks) expect(status, cell).toBe('n/a: the scenario needs events over a WebSocket; the target is an HTTP endpoint');
    // The verdict is a PASS with two methods of three reached: the summary says why, beside it.
    expect(run.stdout).toMatch(/contract-gate: 1 of 3 methods reached no success: 1 × n\/a: .*an HTTP target sends no events/);
  } finally {
    await gateway.close();
  }
});

test('--min-coverage above the share of methods reached fails the gate, every cell holding, and says by how much', async () => {
  const gateway = await startGateway({ contractPaths: [SLICE] });
  const reportDir = scratchDir('contract-gate-http');
  try {
    const run = await runCli(['run', '--target', gateway.httpUrl, '--contract', SLICE, '--grep', METHODS, '--seed', '4', '--runs', '5', '--min-coverage', '67', '--report-dir', reportDir]);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(Object.values(cells(reportDir)).filter((status) => status === 'fail')).toEqual([]);
    expect(run.stdout).toMatch(/contract-gate: FAIL — \d+ pass .*; coverage 2\/3 methods/);
    expect(run.stdout).toContain('contract-gate: coverage fails the gate: 2/3 methods reached with a success (66%), below --min-coverage 67%\n');
    expect(readFileSync(join(reportDir, 'matrix.md'), 'utf8')).toContain('FAIL: coverage 2/3 methods reached with a success (66%), below --min-coverage 67%.');
  } finally {
    await gateway.close();
  }
});

test('a faulty gateway judged over HTTP fails the check its fault breaks, and no other', async () => {
  const gateway = await startGateway({ contractPaths: [SLICE], faults: ['envelope.parse-error-as-invalid-request'] });
  const reportDir = scratchDir('contract-gate-http');
  try {
    const run = await runCli(['run', '--target', gateway.httpUrl, '--contract', SLICE, '--grep', '@method:\\(connection\\)', '--seed', '4', '--report-dir', reportDir]);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(Object.entries(cells(reportDir)).filter(([, status]) => status === 'fail').map(([cell]) => cell)).toEqual(['(connection) × envelope.parse-error']);
  } finally {
    await gateway.close();
  }
});
