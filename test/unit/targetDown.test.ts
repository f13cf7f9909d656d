import { expect, test } from './helpers/test.js';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { METHOD_CHECKS } from '../../src/conformance/methodRunTypes.js';
import { SILENT_REQUESTS_LIMIT } from '../../src/conformance/silenceBreaker.js';
import type { Matrix } from '../../src/report/matrixTypes.js';
import { FOREIGN_DIR, startChildServer } from '../foreignServers/childServer.js';
import { type CliResult, runCli } from './helpers/cliRunner.js';
import { scratchDir } from './helpers/scratchDir.js';

// A target that dies on one frame: the run names that frame, leaves every later cell not-run (never fail, never
// n/a), ends promptly with exit 1, and its replay file kills a fresh instance of the same server.
const FATAL_FRAME = 'this is not json';
const CONTRACT = join(FOREIGN_DIR, 'crashOnFrame.openrpc.json');
/** Where runCli kills a run that hangs: a bound on a hang, not a time the test measures. */
const HANG_BOUND_MS = 70_000;

test('a target that exits on a non-JSON frame: targetDown names the frame, later cells are not run, the replay kills a fresh instance', async () => {
  test.setTimeout(120_000);
  const server = await startChildServer('crashOnFrameServer.mjs', [FATAL_FRAME]);
  const reportDir = scratchDir('contract-gate-crash');
  try {
    const started = Date.now();
    const run = await runCli(['run', '--target', server.url, '--contract', CONTRACT, '--seed', '1', '--runs', '5', '--report-dir', reportDir], {}, HANG_BOUND_MS);
    expect(await server.exited, 'the server exited on the fatal frame').toBe(70);
    expect(run.code, run.stdout).toBe(1);
    const lines = run.stdout.split('\n');
    const summary = lines.slice(lines.findIndex((line) => / checks in /.test(line)) + 1);
    expect(summary[0]).toBe(`contract-gate: TARGET DOWN after (connection) × envelope.parse-error: ${FATAL_FRAME}`);

    const matrix = JSON.parse(readFileSync(join(reportDir, 'matrix.json'), 'utf8')) as Matrix;
    expect(matrix.targetDown).toMatchObject({ subject: '(connection)', check: 'envelope.parse-error', frame: FATAL_FRAME, kind: 'down' });
    const downAt = Date.parse(matrix.targetDown?.at ?? '');
    expect(downAt).toBeGreaterThan(started);
    expect(Date.parse(matrix.generatedAt)).toBeGreaterThanOrEqual(downAt);
    // The run ends once the target is down without waiting on it: no request waited out its timeout (counted, not
    // timed: a loaded machine does not change it), and the later cells are not run (below).
    expect(matrix.traffic?.timeouts, 'requests that waited out their timeout').toBe(0);
    const cell = (check: string) => matrix.cells.find((c) => c.method === '(connection)' && c.check === check);
    expect(cell('envelope.parse-error')?.status).toBe('fail');
    // The count never exceeds what was sent: one frame went out before the connection was lost.
    expect(cell('envelope.parse-error')?.detail).toMatch(/^the connection was lost after not JSON \(this is not json\): 1 of 3 non-JSON frames sent; 1 of 1 non-JSON frames broke the rule/);
    for (const later of ['envelope.invalid-request', 'envelope.batch', 'envelope.oversized-frame']) {
      expect(cell(later)).toMatchObject({ status: 'not-run', detail: 'target down after (connection) × envelope.parse-error' });
    }
    // Everything judged before the crash keeps its verdict: the one method of the contract conforms.
    expect(matrix.cells.filter((c) => c.status === 'fail').map((c) => `${c.method} × ${c.check}`)).toEqual(['(connection) × envelope.parse-error']);
    for (const file of ['matrix.md', 'matrix.html']) expect(readFileSync(join(reportDir, file), 'utf8')).toContain('TARGET DOWN after (connection) × envelope.parse-error');
    const markdown = readFileSync(join(reportDir, 'matrix.md'), 'utf8');
    expect(markdown.indexOf('TARGET DOWN')).toBeLessThan(markdown.indexOf('| subject |'));

    const replay = join(reportDir, matrix.targetDown?.replay ?? 'missing');
    expect(existsSync(replay)).toBe(true);
    const fresh = await startChildServer('crashOnFrameServer.mjs', [FATAL_FRAME]);
    try {
      const replayed = await runCli(['replay', replay, '--target', fresh.url]);
      expect(replayed.code, replayed.stdout).toBe(1);
      expect(replayed.stdout).toContain('REPRODUCED: the target no longer accepts connections');
      expect(await fresh.exited).toBe(70);
    } finally {
      await fresh.stop();
    }
  } finally {
    await server.stop();
    rmSync(reportDir, { recursive: true, force: true });
  }
});

test('over HTTP too: a target that exits on a non-JSON body is found down at once, the body named, and its replay kills a fresh instance', async () => {
  test.setTimeout(120_000);
  const server = await startChildServer('crashOnFrameServer.mjs', ['--http', FATAL_FRAME]);
  const reportDir = scratchDir('contract-gate-crash');
  try {
    const run = await runCli(['run', '--target', server.url, '--contract', CONTRACT, '--seed', '1', '--runs', '5', '--report-dir', reportDir], {}, HANG_BOUND_MS);
    expect(await server.exited, 'the server exited on the fatal body').toBe(70);
    expect(run.code, run.stdout).toBe(1);
    const matrix = JSON.parse(readFileSync(join(reportDir, 'matrix.json'), 'utf8')) as Matrix;
    expect(matrix.targetDown).toMatchObject({ subject: '(connection)', check: 'envelope.parse-error', frame: FATAL_FRAME, kind: 'down' });
    expect(matrix.traffic?.timeouts, 'requests that waited out their timeout').toBe(0);
    const cell = (check: string) => matrix.cells.find((c) => c.method === '(connection)' && c.check === check);
    // A POST the target refused is a lost connection: nothing more is sent on it, and the count says so.
    expect(cell('envelope.parse-error')?.detail).toMatch(/^the connection was lost after not JSON \(this is not json\): 1 of 3 non-JSON frames sent; 1 of 1 non-JSON frames broke the rule/);
    for (const later of ['envelope.invalid-request', 'envelope.batch', 'envelope.oversized-frame']) expect(cell(later)?.status).toBe('not-run');
    expect(matrix.cells.filter((c) => c.status === 'fail').map((c) => `${c.method} × ${c.check}`)).toEqual(['(connection) × envelope.parse-error']);

    const fresh = await startChildServer('crashOnFrameServer.mjs', ['--http', FATAL_FRAME]);
    try {
      const replayed = await runCli(['replay', join(reportDir, matrix.targetDown?.replay ?? 'missing'), '--target', fresh.url]);
      expect(replayed.code, replayed.stdout).toBe(1);
      expect(replayed.stdout).toContain('REPRODUCED: the target no longer accepts connections');
      expect(await fresh.exited).toBe(70);
    } finally {
      await fresh.stop();
    }
    // A replay against a target that survives says so.
    const survivor = await startChildServer('crashOnFrameServer.mjs', ['--http', 'a body nobody sends']);
    try {
      const replayed = await runCli(['replay', join(reportDir, matrix.targetDown?.replay ?? 'missing'), '--target', survivor.url]);
      expect(replayed.stdout, replayed.stderr).toContain('NOT REPRODUCED: the target still accepts connections');
    } finally {
      await survivor.stop();
    }
  } finally {
    await server.stop();
    rmSync(reportDir, { recursive: true, force: true });
  }
});

/**
 * A run of slowMethod.openrpc.json against `target` on one worker: exit 1, and its matrix. By default a 1 s timeout
 * (against slow.hash's 1.5 s) and two requests in flight; `requestTimeout` and `extra` change that.
 */
async function slowHashRun(target: string, reportDir: string, requestTimeout = '1000', extra: readonly string[] = ['--max-in-flight', '2']): Promise<{ run: CliResult; matrix: Matrix }> {
  const args = ['run', '--target', target, '--contract', join(FOREIGN_DIR, 'slowMethod.openrpc.json'), '--seed', '1', '--runs', '5', '--request-timeout', requestTimeout];
  const run = await runCli([...args, '--workers', '1', ...extra, '--report-dir', reportDir], {}, 110_000);
  expect(run.code, run.stdout).toBe(1);
  return { run, matrix: JSON.parse(readFileSync(join(reportDir, 'matrix.json'), 'utf8')) as Matrix };
}

/** slow.hash fails on its own timeouts; the fast methods pass (or are n/a); the target is never taken for down. */
function expectOnlySlowHashFails(matrix: Matrix): void {
  expect(matrix.cells.filter((c) => c.status === 'fail').map((c) => `${c.method} × ${c.check}`)).toEqual(['slow.hash × params.valid-accepted']);
  for (const method of ['fast.echo', 'fast.sum']) {
    expect(matrix.cells.filter((c) => c.method === method && c.status !== 'pass' && c.status !== 'n/a')).toEqual([]);
  }
  expect(matrix.targetDown).toBeUndefined();
}

test('a target slow on one method only: that method fails on its own timeouts, no later method fails from the backlog, and no more than --max-in-flight requests were outstanding', async () => {
  test.setTimeout(120_000);
  const server = await startChildServer('slowMethodServer.mjs', ['1500']);
  const reportDir = scratchDir('contract-gate-slow');
  try {
    const { run, matrix } = await slowHashRun(server.url, reportDir);
    // slow.hash takes 1.5 s to answer on a server that works on one request at a time: its valid payloads time
    // out (1 s), which is its own failure. fast.sum is judged after it, behind whatever slow.hash left queued.
    expectOnlySlowHashFails(matrix);
    // Each slow.hash call outlasts the timeout and the next is sent only once it has timed out and the target
    // drained; the first timeout is judged by sending its request once more on the drained target. The run stops
    // sending that method after the silent-request limit, and the fast methods wait for the backlog to drain.
    const timeouts = SILENT_REQUESTS_LIMIT + 1;
    expect(matrix.traffic?.timeouts, 'the slow.hash calls sent before the silence limit, and the one sent again').toBe(timeouts);
    expect(matrix.traffic?.peakInFlight).toBeLessThanOrEqual(2);
    expect(run.stdout).toMatch(new RegExp(`contract-gate: traffic — \\d+ requests sent, peak [12] in flight per worker, ${timeouts} timed out`));
  } finally {
    await server.stop();
    rmSync(reportDir, { recursive: true, force: true });
  }
});

/**
 * The requests of a transcript that were sent while an answer to an earlier one was still owed on the same
 * connection, the backlog probe's (`contract_gate.backlog_probe`, which waits behind the backlog on purpose) apart.
 */
function sentWhileOwed(transcript: string): string[] {
  const owed = new Set<unknown>();
  const early: string[] = [];
  for (const line of transcript.split('\n')) {
    const frame = /^(>>|<<) \[\w+ \+\d+ms\] (\{.*\})$/.exec(line);
    if (!frame?.[2]) continue;
    const message = JSON.parse(frame[2]) as { id?: unknown; method?: string };
    if (frame[1] === '<<') owed.delete(message.id);
    else if (message.id !== undefined) {
      if (owed.size > 0 && message.method !== 'contract_gate.backlog_probe') early.push(`${String(message.id)} while ${[...owed].join(', ')} owed`);
      owed.add(message.id);
    }
  }
  return early;
}

test('the same target spawned over stdio: the same verdicts and timeouts, each drained on the connection that timed out, and the process that timed out is ended, not handed to the next method run', async () => {
  test.setTimeout(120_000);
  const reportDir = scratchDir('contract-gate-slow-stdio');
  try {
    const { matrix } = await slowHashRun(`stdio:'${process.execPath}' ${join(FOREIGN_DIR, 'slowMethodServer.mjs')} 1500 --stdio`, reportDir);
    expectOnlySlowHashFails(matrix);
    expect(matrix.traffic?.timeouts).toBe(SILENT_REQUESTS_LIMIT + 1);
    // Answers to its timed-out calls were still due when its run ended: that process ends with the run (whichever
    // process the run began on); the fast methods' runs hand theirs on.
    const transcript = (method: string): string => readFileSync(join(reportDir, 'transcripts', `${method}.txt`), 'utf8');
    expect(transcript('slow.hash')).toMatch(/closed \(the process exited with code 0\)\n$/);
    expect(transcript('slow.hash')).not.toContain('was kept running');
    // The backlog a timeout leaves is that process's: the probe goes on the same connection, and the next request only
    // once the probe was answered, behind the late answer (a probe on a new connection is a new process, which answers
    // at once whatever the backlog: the next slow.hash then queued behind the one that timed out).
    // (At least one per timeout: on a loaded machine a probe can time out behind the backlog and be sent again.)
    expect(transcript('slow.hash').match(/"method":"contract_gate\.backlog_probe"/g)?.length ?? 0, 'a probe on the same connection after each timeout').toBeGreaterThanOrEqual(SILENT_REQUESTS_LIMIT + 1);
    expect(sentWhileOwed(transcript('slow.hash'))).toEqual([]);
    expect([transcript('fast.echo'), transcript('fast.sum')].filter((text) => text.includes('was kept running')).length).toBeGreaterThan(0);
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
});

test('a negative case the drained target still leaves unanswered is sent once, not twice; one whose answer came late is sent again, as a timeout is, and a late success is judged', async () => {
  test.setTimeout(60_000);
  // fast.echo and fast.sum over stdio; each method's invalid phase sends its params as an array (by position) once.
  // `--drop-positional`: never answered, as the MCP SDK leaves a message that fails its own schema. A timeout breaks no
  // rule of params.invalid-not-accepted (only a success does), and the probe after it showed the target drained with
  // the request still unanswered: sending it again could only time out again. `--late-positional`: answered after the
  // timeout, in its turn, before the probe: the target was busy, and the request is sent again on the drained target.
  // With `--accept-positional` those late answers are successes: the invalid payload was accepted, late or not.
  const run = async (flag: string, exit = 0): Promise<{ matrix: Matrix; arrays: number[] }> => {
    const reportDir = scratchDir('contract-gate-negative-timeouts');
    const target = `stdio:'${process.execPath}' ${join(FOREIGN_DIR, 'slowMethodServer.mjs')} 1500 --stdio ${flag}`;
    const args = ['run', '--target', target, '--contract', join(FOREIGN_DIR, 'slowMethod.openrpc.json'), '--grep', '@method:fast\\.', '--seed', '1', '--runs', '5', '--request-timeout', '1000', '--workers', '1', '--report-dir', reportDir];
    const result = await runCli(args, {}, 50_000);
    expect(result.code, result.stdout + result.stderr).toBe(exit);
    const arrays = ['fast.echo', 'fast.sum'].map((method) => readFileSync(join(reportDir, 'transcripts', `${method}.txt`), 'utf8').match(/^>> .*"params":\[\]\}$/gm)?.length ?? 0);
    return { matrix: JSON.parse(readFileSync(join(reportDir, 'matrix.json'), 'utf8')) as Matrix, arrays };
  };
  const [dropped, late, lateSuccess] = await Promise.all([run('--drop-positional'), run('--late-positional 1200'), run('--late-positional 1200 --accept-positional', 1)]);
  expect(dropped.arrays, 'each method\'s unanswered array sent once').toEqual([1, 1]);
  expect(dropped.matrix.traffic?.timeouts).toBe(2);
  expect(late.arrays, 'each method\'s late-answered array sent again').toEqual([2, 2]);
  expect(late.matrix.traffic?.timeouts).toBe(4);
  // A success that comes after the timeout is a success all the same: the invalid payload was accepted.
  expect(lateSuccess.matrix.cells.filter((cell) => cell.status === 'fail').map((cell) => `${cell.method} × ${cell.check}: ${/got a success after its timeout/.test(cell.detail ?? '')}`)).toEqual([
    'fast.echo × params.invalid-not-accepted: true',
    'fast.sum × params.invalid-not-accepted: true',
  ]);
  for (const [{ matrix }, unanswered] of [[dropped, 1], [late, 0]] as const) {
    const invalid = matrix.cells.filter((cell) => cell.check === 'params.invalid-not-accepted');
    expect(invalid.map((cell) => cell.status)).toEqual(['pass', 'pass']);
    expect(matrix.cells.filter((cell) => cell.status === 'fail')).toEqual([]);
    // The unanswered array is judged (it was not accepted) but is no answer: the evidence counts the others only. An
    // answer after the timeout is an answer seen.
    for (const cell of invalid) {
      const judged = Number(/^(\d+) exchanges judged, all conform/.exec(cell.detail ?? '')?.[1]);
      expect(cell.evidence?.answersJudged, cell.detail).toBe(judged - unanswered);
      expect(cell.detail?.includes('(1 of them unanswered'), cell.detail).toBe(unanswered === 1);
    }
  }
});

test('a target that does not drain within the drain limit is slow: later methods are not run, the summary says TARGET SLOW', async () => {
  test.setTimeout(120_000);
  const server = await startChildServer('slowMethodServer.mjs', ['20000']);
  const reportDir = scratchDir('contract-gate-slow');
  try {
    const args = ['run', '--target', server.url, '--contract', join(FOREIGN_DIR, 'slowMethod.openrpc.json'), '--seed', '1', '--runs', '5', '--request-timeout', '500', '--drain-limit', '1500'];
    const run = await runCli([...args, '--workers', '1', '--grep', '@method:(slow\\.hash|fast\\.sum)', '--report-dir', reportDir], {}, 110_000);
    expect(run.code, run.stdout).toBe(1);
    const lines = run.stdout.split('\n');
    expect(lines[lines.findIndex((line) => / checks in /.test(line)) + 1]).toMatch(/^contract-gate: TARGET SLOW after slow\.hash × params\.valid-accepted: \{"jsonrpc":"2\.0",.*"method":"slow\.hash"/);
    const matrix = JSON.parse(readFileSync(join(reportDir, 'matrix.json'), 'utf8')) as Matrix;
    expect(matrix.targetDown).toMatchObject({ subject: 'slow.hash', check: 'params.valid-accepted', kind: 'slow' });
    expect(matrix.cells.find((c) => c.method === 'slow.hash' && c.check === 'params.valid-accepted')?.status).toBe('fail');
    const later = matrix.cells.filter((c) => c.method === 'fast.sum');
    expect(later.map((c) => c.check).sort(), 'every method check of fast.sum').toEqual([...METHOD_CHECKS].sort());
    for (const cell of later) expect(cell).toMatchObject({ status: 'not-run', detail: 'target slow after slow.hash × params.valid-accepted' });
  } finally {
    await server.stop();
    rmSync(reportDir, { recursive: true, force: true });
  }
});

test('over stdio, a process that does not drain within the drain limit is ended, not the run: later methods are judged on processes of their own', async () => {
  test.setTimeout(120_000);
  const reportDir = scratchDir('contract-gate-slow-stdio');
  try {
    const target = `stdio:'${process.execPath}' ${join(FOREIGN_DIR, 'slowMethodServer.mjs')} 20000 --stdio`;
    const { run, matrix } = await slowHashRun(target, reportDir, '500', ['--drain-limit', '1500', '--grep', '@method:(slow\\.hash|fast\\.sum)']);
    expect(run.stdout).not.toContain('TARGET SLOW');
    expectOnlySlowHashFails(matrix);
    // The stuck process was killed once its probe went unanswered for the drain limit; the resend went on a new
    // connection, a process of its own.
    const transcript = readFileSync(join(reportDir, 'transcripts', 'slow.hash.txt'), 'utf8');
    expect(transcript).toMatch(/^-- \[m1 \+\d+ms\] closed \(the process was killed by SIGKILL\)$/m);
    expect(transcript).toMatch(/^-- \[m2 \+\d+ms\] connect stdio:/m);
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
});
