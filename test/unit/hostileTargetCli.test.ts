import { expect, test } from './helpers/test.js';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SILENT_REQUESTS_LIMIT } from '../../src/conformance/silenceBreaker.js';
import { parseMatrixJson } from '../../src/report/renderJson.js';
import { startHostileServer, writeHostileContract, type HostileMode } from './helpers/hostileServer.js';
import { scratchDir } from './helpers/scratchDir.js';

// `contract-gate run` end to end against a hostile target: the run must end with exit 1 and a matrix naming
// the failing cells, without waiting out the target: the silent one costs the silence guard's few timeouts and no
// request more (without the guard, one timeout per case: about 20 s here, tens of minutes with real timeouts), the
// others none. Counted from the matrix's traffic, not timed: a loaded machine does not change the count.
const TEST_TIMEOUT_MS = 60_000;

function runCli(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/contract-gate.js', ...args], { cwd: process.cwd(), env: { ...process.env, CI: '' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

const cases: Array<{ mode: HostileMode; failing: Record<string, RegExp> }> = [
  {
    mode: 'silent',
    // --runs 2: two valid payloads and the closed-model probe time out, then the silence guard skips the rest.
    failing: { 'params.valid-accepted': /math\.add did not answer within 300 ms/, 'params.unknown-key-rejected': /math\.add did not answer within 300 ms/ },
  },
  {
    mode: 'close-1011',
    failing: {
      'params.valid-accepted': /the target closed the connection \(code 1011, "internal error"\) before answering/,
      'params.unknown-key-rejected': /the target closed the connection \(code 1011/,
    },
  },
];

for (const { mode, failing } of cases) {
  test(`contract-gate run against a ${mode} target exits 1 with the failing cells in matrix.json`, async () => {
    test.setTimeout(TEST_TIMEOUT_MS);
    const dir = scratchDir(`hostile-cli-${mode}`);
    const server = await startHostileServer(mode);
    try {
      const reportDir = join(dir, 'report');
      const { code, output } = await runCli([
        'run',
        '--target', server.url,
        '--contract', writeHostileContract(dir),
        '--profile', 'json-rpc',
        '--runs', '2',
        '--request-timeout', '300',
        '--seed', '1',
        '--report-dir', reportDir,
        '--grep', '@method:math\\.add',
      ]);
      expect(code, output).toBe(1);
      const matrixPath = join(reportDir, 'matrix.json');
      expect(existsSync(matrixPath), output).toBe(true);
      const matrix = parseMatrixJson(readFileSync(matrixPath, 'utf8'), matrixPath);
      expect(matrix.verdict).toBe('fail');
      const waited = mode === 'silent' ? SILENT_REQUESTS_LIMIT : 0;
      expect(matrix.traffic, 'requests that waited out their timeout; for the silent target, nothing sent after them').toMatchObject({ timeouts: waited, ...(mode === 'silent' ? { requestsSent: waited } : {}) });
      const failed = matrix.cells.filter((c) => c.status === 'fail');
      expect(failed.map((c) => c.check).sort()).toEqual(Object.keys(failing).sort());
      for (const cell of failed) {
        expect(cell.method).toBe('math.add');
        expect(cell.detail).toMatch(failing[cell.check] as RegExp);
      }
      expect(matrix.cells.filter((c) => c.status === 'not-run')).toEqual([]);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
