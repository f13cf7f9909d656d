import { expect, test } from './helpers/test.js';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { dropWritesOnceClosed } from '../../core/closedOutput.js';
import { parseMatrixJson } from '../../src/report/renderJson.js';
import { CLI, REPO } from './helpers/cliRunner.js';
import { scratchDir } from './helpers/scratchDir.js';

/*
 * `contract-gate run … | head`: the reader stops after its first lines and the pipe closes under the command. The
 * command goes on to its own exit code, its report written: a faulty gateway still fails the gate. (It used to end at
 * the first write that found the pipe closed, with 0: a green gate that had judged nothing.)
 */

const FAULTY_RUN = ['run', '--seed', '1', '--runs', '5', '--contract', 'profiles/hermes/contracts/session-lifecycle.openrpc.json', '--fault', 'params.unknown-keys-accepted', '--grep', 'session.set_hidden'];
const FAILING_CELL = 'session.set_hidden × params.unknown-key-rejected';

/** Runs the CLI with stdout and stderr read until the first chunk, then closed, as `2>&1 | head -1` does. */
function runIntoClosedPipe(args: string[]): Promise<{ code: number | null; firstChunk: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: REPO, env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let firstChunk = '';
    const close = (chunk: Buffer): void => {
      firstChunk ||= chunk.toString();
      child.stdout.destroy();
      child.stderr.destroy();
    };
    child.stdout.once('data', close);
    child.stderr.once('data', close);
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, firstChunk });
    });
  });
}

for (const runner of ['in-process', 'playwright']) {
  test(`run --runner ${runner} into a pipe closed after its first line: exit 1 on the faulty gateway, with its report`, async () => {
    const reportDir = join(scratchDir('contract-gate-closed-output'), 'report');
    const run = await runIntoClosedPipe([...FAULTY_RUN, '--runner', runner, '--report-dir', reportDir]);
    expect(run.firstChunk).toContain('contract-gate: target embedded reference gateway');
    expect(run.code, 'the verdict, not a clean exit at the first write that found the pipe closed').toBe(1);
    const matrixPath = join(reportDir, 'matrix.json');
    expect(existsSync(matrixPath), 'the report is written').toBe(true);
    const failing = parseMatrixJson(readFileSync(matrixPath, 'utf8'), matrixPath).cells.filter((cell) => cell.status === 'fail');
    expect(failing.map((cell) => `${cell.method} × ${cell.check}`)).toEqual([FAILING_CELL]);
  });
}

test('a closed output drops later writes, calling their callbacks; an error other than EPIPE still throws', async () => {
  const stream = new PassThrough() as unknown as NodeJS.WriteStream;
  dropWritesOnceClosed(stream);
  dropWritesOnceClosed(stream);
  expect(stream.listenerCount('error'), 'guarded once').toBe(1);
  stream.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
  const called = await new Promise<boolean>((resolve) => {
    expect(stream.write('dropped', () => resolve(true))).toBe(true);
    setTimeout(() => resolve(false), 1_000);
  });
  expect(called, 'the callback of a dropped write is called').toBe(true);
  expect(() => stream.emit('error', Object.assign(new Error('write EIO'), { code: 'EIO' }))).toThrow('EIO');
});
