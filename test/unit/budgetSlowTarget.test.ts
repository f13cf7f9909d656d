import { expect, test } from './helpers/test.js';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { RpcClient } from '../../src/client/rpcClient.js';
import type { Matrix } from '../../src/report/matrixTypes.js';
import { FOREIGN_DIR, startChildServer } from '../foreignServers/childServer.js';
import { runCli } from './helpers/cliRunner.js';
import { scratchDir } from './helpers/scratchDir.js';

// A jayson server that works like a single-threaded node (test/foreignServers/queuedNodeServer.mjs): one queue for
// every request, 20-80 ms per fast method, 1.2 s for node.proof, which outlasts the 500 ms request timeout. Every
// request node.proof leaves unanswered holds the queue, so a client that kept sending would fail every later method.
const CONTRACT = join(FOREIGN_DIR, 'queuedNode.openrpc.json');
const BUDGET_MS = 20_000;
const REQUEST_TIMEOUT_MS = 500;
const PROCESS_START_AND_EXIT_MS = 5_000;
const FAST = ['node.balance', 'node.block', 'node.echo', 'node.version'];

test('--budget 20s on a slow single-threaded target: ends within the budget, cuts generated runs (said per method), only the slow method fails, the target answers right after', async () => {
  test.setTimeout(180_000);
  const server = await startChildServer('queuedNodeServer.mjs', []);
  const reportDir = scratchDir('contract-gate-budget');
  try {
    const args = ['run', '--target', server.url, '--contract', CONTRACT, '--seed', '1', '--workers', '2', '--request-timeout', String(REQUEST_TIMEOUT_MS)];
    const started = Date.now();
    const run = await runCli([...args, '--budget', '20s', '--report-dir', reportDir], {}, 170_000);
    const wallMs = Date.now() - started;

    // Right after the run, a cheap call is answered at once: nothing the run sent is still queued.
    const client = await RpcClient.connect({ url: server.url, readyTimeoutMs: 0, requestTimeoutMs: 5_000 });
    const cheap = await client.call('node.version');
    await client.close();
    expect(cheap.response, 'node.version answered within 5 s of the end of the run').toMatchObject({ result: 'queued-node/1.0' });

    const matrix = JSON.parse(readFileSync(join(reportDir, 'matrix.json'), 'utf8')) as Matrix;
    const methodCells = matrix.cells.filter((cell) => cell.method.startsWith('node.'));
    expect(methodCells.filter((cell) => cell.status === 'fail').map((cell) => `${cell.method} × ${cell.check}`)).toEqual(['node.proof × params.valid-accepted']);
    expect(methodCells.find((cell) => cell.method === 'node.proof' && cell.check === 'params.valid-accepted')?.detail).toContain('[REQUEST_TIMEOUT] node.proof did not answer within 500 ms');
    for (const method of FAST) expect(methodCells.filter((cell) => cell.method === method && cell.status !== 'pass' && cell.status !== 'n/a'), method).toEqual([]);
    // No cell after node.proof, on either worker, was failed by the queue it left behind.
    expect(matrix.cells.filter((cell) => cell.method !== 'node.proof' && /REQUEST_TIMEOUT|did not answer/.test(cell.detail ?? ''))).toEqual([]);
    expect(matrix.targetDown).toBeUndefined();

    // The matrix says what was cut: runs made vs asked for every method, examples never cut.
    expect(matrix.runs?.budgetMs).toBe(BUDGET_MS);
    expect(matrix.runs?.methods.map((method) => method.method)).toEqual([...FAST.slice(0, 3), 'node.proof', 'node.version']);
    for (const method of matrix.runs?.methods ?? []) {
      expect(method.asked).toBe(100);
      expect(method.made).toBeGreaterThanOrEqual(1);
      expect(method.made).toBeLessThanOrEqual(100);
    }
    expect(matrix.runs?.cut).toBeGreaterThanOrEqual(1);
    expect(run.stdout).toMatch(/contract-gate: budget 20s: valid runs cut on [1-5] of 5 methods: .*node\.proof 2\/100/);
    expect(readFileSync(join(reportDir, 'matrix.md'), 'utf8')).toMatch(/\| `node\.proof` \| 2 \| 100 \|/);
    // And so does each cell the cut fed fewer cases: it does not read like one that judged all of them.
    const proofValid = matrix.cells.find((cell) => cell.method === 'node.proof' && cell.check === 'params.valid-accepted');
    expect(proofValid?.detail).toContain('valid runs cut by the budget (20s): 2 of 100 made');

    // Within the budget plus one request timeout. Fixed cases are never cut: on a machine so loaded that start-up
    // and the fixed cases alone outlast the budget, every method must then have been cut to its fixed examples
    // (the most the budget may cut), which the ledger of the run says.
    const onlyFixed = (matrix.runs?.methods ?? []).every((method) => method.made <= 2);
    // The process's own start (Node, loading the contract) and exit are outside the run's clock: 5 s for them.
    if (!onlyFixed) expect(wallMs, `${run.stdout}`).toBeLessThanOrEqual(BUDGET_MS + REQUEST_TIMEOUT_MS + PROCESS_START_AND_EXIT_MS);
    test.info().annotations.push({ type: 'wall', description: `${wallMs} ms, ${onlyFixed ? 'every method cut to its examples' : 'within the budget'}` });
  } finally {
    await server.stop();
    rmSync(reportDir, { recursive: true, force: true });
  }
});
