import { expect, test } from './helpers/test.js';
import { rmSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { NO_BINDINGS } from '../../src/binding/index.js';
import { JSON_RPC_CODES } from './helpers/profiles.js';
import { ResilientCaller } from '../../src/client/resilientCaller.js';
import { MAX_TRANSCRIBED_EVENTS, RpcClient, type RpcClientOptions } from '../../src/client/rpcClient.js';
import { runMethod, type MethodRunResult } from '../../src/conformance/index.js';
import { SILENT_REQUESTS_LIMIT } from '../../src/conformance/silenceBreaker.js';
import { loadContractSync } from '../../src/contracts/loadContract.js';
import type { Contract } from '../../src/contracts/contractModel.js';
import { SchemaValidators } from '../../src/contracts/schemaValidators.js';
import { startHostileServer, writeHostileContract, type HostileMode, type HostileServerOptions } from './helpers/hostileServer.js';
import { HERMES_DIALECT } from '../../profiles/hermes/dialect.js';
import { scratchDir } from './helpers/scratchDir.js';

// Every mode runs one method with runs: RUNS and 300 ms request timeouts. Without the harness's guards a hostile
// target costs one timeout per case (about 6 s here, minutes with real timeouts). With them, no request of a target
// that answers waits out its timeout, and a silent one sends SILENT_REQUESTS_LIMIT requests (three timeouts, then the
// rest is skipped). Both are counted, not timed: a loaded machine cannot stretch a count.
const REQUEST_TIMEOUT_MS = 300;
const RUNS = 3;
/** The valid phase's time limit, as a run passes it; the tests count what was waited out instead of timing the run. */
const TIME_LIMIT_MS = 5_000;
const MiB = 1024 * 1024;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

let dir: string;
let contract: Contract;
let validators: SchemaValidators;

test.beforeAll(() => {
  dir = scratchDir('hostile-target');
  contract = loadContractSync(writeHostileContract(dir));
  validators = new SchemaValidators(contract);
});

test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface HostileRun {
  result: MethodRunResult;
  clients: RpcClient[];
  failing: string[];
  detail(check: string): string;
  /** Heap retained by the run (after GC, the result and its clients still referenced); measured on request only. */
  heapGrowth: number;
}

// Measuring the heap takes four full collections of the worker's heap: only the runs whose tests read it pay them.
async function runAgainst(mode: HostileMode, options: { server?: HostileServerOptions; client?: Partial<RpcClientOptions>; requestTimeoutMs?: number; measureHeap?: boolean } = {}): Promise<HostileRun> {
  const server = await startHostileServer(mode, options.server);
  const requestTimeoutMs = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const clients: RpcClient[] = [];
  const caller = new ResilientCaller(async () => {
    const client = await RpcClient.connect({ dialect: HERMES_DIALECT, url: server.url, name: `c${clients.length + 1}`, readyTimeoutMs: 0, requestTimeoutMs, ...options.client });
    clients.push(client);
    return client;
  });
  try {
    const method = contract.method('math.add');
    if (!method) throw new Error('math.add missing from the hostile contract');
    const heapBefore = options.measureHeap ? heapAfterGc() : 0;
    const result = await runMethod({ contract, method, profile: JSON_RPC_CODES, validators, caller, rules: NO_BINDINGS, seed: 1, runs: RUNS, timeLimitMs: TIME_LIMIT_MS, requestTimeoutMs });
    const heapGrowth = options.measureHeap ? heapAfterGc() - heapBefore : Number.NaN;
    const failing = [...result.verdicts.values()].filter((v) => v.status === 'fail').map((v) => v.check).sort();
    return { result, clients, failing, heapGrowth, detail: (check) => result.verdicts.get(check as never)?.detail ?? '' };
  } finally {
    await caller.close();
    await server.close();
  }
}

/** The requests of a run that waited out their timeout (cases not sent, on connection `-`, waited for nothing). */
function waitedOut(run: HostileRun): string[] {
  return run.result.records.filter((record) => record.exchange.conn !== '-' && record.exchange.failure?.code === 'REQUEST_TIMEOUT').map((record) => `${record.phase} ${String(record.exchange.id)}`);
}

test('a well-behaved server passes every check (the control for the modes below)', async () => {
  const run = await runAgainst('well-behaved');
  expect(run.failing).toEqual([]);
  expect(waitedOut(run)).toEqual([]);
  expect(run.result.verdicts.get('params.valid-accepted')?.status).toBe('pass');
  expect(run.result.verdicts.get('params.unknown-key-rejected')?.status).toBe('pass');
  expect(run.result.verdicts.get('params.invalid-not-accepted')?.status).toBe('pass');
});

test('non-JSON answers: params.valid-accepted fails saying the answer is not JSON', async () => {
  const run = await runAgainst('non-json');
  expect(run.failing).toEqual(['params.unknown-key-rejected', 'params.valid-accepted']);
  expect(run.detail('params.valid-accepted')).toMatch(/an unparseable answer: \[UNPARSEABLE_FRAME\] the target answered with text that is not JSON: "<html>/);
  expect(waitedOut(run)).toEqual([]);
});

test('an id that matches no request: envelope.id-echo fails and names both ids', async () => {
  const run = await runAgainst('unknown-id');
  expect(run.failing).toEqual(['envelope.id-echo']);
  expect(run.detail('envelope.id-echo')).toMatch(/request id "r\d+" \(string\) was answered with id "no-such-request-\d+" \(string\)/);
  expect(waitedOut(run)).toEqual([]);
});

test('the id echoed as another JSON type: envelope.id-echo fails, the answers are still judged', async () => {
  const run = await runAgainst('id-other-type', { client: { idPrefix: '' } });
  expect(run.failing).toEqual(['envelope.id-echo']);
  expect(run.detail('envelope.id-echo')).toMatch(/request id "\d+" \(string\) was answered with id \d+ \(number\)/);
  expect(run.result.verdicts.get('params.valid-accepted')?.status).toBe('pass');
  expect(waitedOut(run)).toEqual([]);
});

test('a target that never answers: params.valid-accepted fails with the timeout, the rest is skipped, not waited out', async () => {
  const run = await runAgainst('silent');
  expect(run.failing).toEqual(['params.valid-accepted']);
  expect(run.detail('params.valid-accepted')).toContain(`math.add did not answer within ${REQUEST_TIMEOUT_MS} ms`);
  expect(run.detail('params.invalid-not-accepted')).toMatch(/^not judged: \d+ cases not sent, the target had left 3 requests in a row unanswered/);
  expect(run.result.verdicts.get('params.invalid-not-accepted')?.status).toBe('n/a');
  // Not waited out: the requests sent stop at the silence limit (a count, which a loaded machine cannot stretch).
  expect(run.result.records.filter((record) => record.exchange.conn !== '-'), 'the requests sent').toHaveLength(SILENT_REQUESTS_LIMIT);
  expect(waitedOut(run), 'every request sent waited out its timeout').toHaveLength(SILENT_REQUESTS_LIMIT);
});

test('answers that come after the timeout: they are never taken for the request open at that moment', async () => {
  const run = await runAgainst('late-answer', { server: { lateMs: REQUEST_TIMEOUT_MS + 100 } });
  // Before late answers were recognised, each went to the next request as its answer and failed envelope.id-echo.
  expect(run.failing).toEqual(['params.valid-accepted']);
  expect(run.detail('params.valid-accepted')).toContain(`math.add did not answer within ${REQUEST_TIMEOUT_MS} ms`);
  // Slow, not silent: the detail says an answer came after the timeout, and which.
  expect(run.detail('params.valid-accepted')).toMatch(/did not answer within \d+ ms \(an answer came after the timeout: \{"jsonrpc":"2\.0","id":"r1","result":-?\d+\}\)/);
  for (const record of run.result.records) expect(record.exchange.response).toBeUndefined();
  // Each late answer comes while the next request is open, so it is a stray frame of that connection; the last
  // request's may come after the run has closed it (the rest of the cases are skipped at once).
  const sent = run.result.records.filter((record) => record.exchange.conn !== '-').map((record) => record.exchange.id);
  expect(sent, 'the requests sent before the silence limit').toHaveLength(SILENT_REQUESTS_LIMIT);
  const strayIds = (run.clients[0]?.strayFrames ?? []).map((frame) => (JSON.parse(frame) as { id: unknown }).id);
  expect(strayIds, 'the late answers, in order: every one but possibly the last').toEqual(sent.slice(0, Math.max(strayIds.length, sent.length - 1)));
});

for (const [mode, code] of [['close-1011', '1011, "internal error"'], ['destroy', '1006']] as const) {
  test(`the socket closed in the middle of a call (${mode}): params.valid-accepted fails with the close code, each call on a new connection`, async () => {
    const run = await runAgainst(mode);
    expect(run.failing).toEqual(['params.unknown-key-rejected', 'params.valid-accepted']);
    expect(run.detail('params.valid-accepted')).toContain(`the target closed the connection (code ${code}) before answering`);
    expect(run.clients.length).toBeGreaterThanOrEqual(run.result.records.length);
    expect(waitedOut(run)).toEqual([]);
  });
}

test('a flood of events while answering normally: every check holds, memory and the transcript stay bounded', async () => {
  // About 50 000 notifications a second for the 2-3 s the delayed answers take: more than the event log keeps.
  // 3 s request timeouts: on a loaded machine a 150 ms answer behind the flood came after 300 ms, and the run judged
  // the timeout instead of the answer.
  const run = await runAgainst('flood', { server: { floodPerSecond: 50_000, answerDelayMs: 150 }, requestTimeoutMs: 3_000, measureHeap: true });
  expect(run.failing).toEqual([]);
  const [client] = run.clients;
  if (!client) throw new Error('no connection was opened');
  expect(client.events.length).toBeGreaterThan(20_000);
  expect(client.events.recorded.length).toBeLessThanOrEqual(50_000);
  // The flood is cut short in the transcript, so every request of the run is still in it.
  const sent = client.transcript.entries.filter((e) => e.dir === '>>').length;
  expect(sent).toBe(run.result.records.length);
  expect(client.transcript.entries.length).toBeLessThan(MAX_TRANSCRIBED_EVENTS + 4 * sent + 10);
  expect(run.heapGrowth).toBeLessThan(150 * MiB);
  expect(waitedOut(run)).toEqual([]);
});

test('huge answers: result.schema fails on the 8 MiB string, and only the parsed answers stay in memory', async () => {
  const hugeBytes = 8 * MiB;
  // Building, sending and parsing 8 MiB answers takes well over the 300 ms other modes allow on a loaded machine.
  const run = await runAgainst('huge-frame', { server: { hugeBytes }, requestTimeoutMs: 3_000, measureHeap: true });
  expect(run.failing).toEqual(['result.schema']);
  expect(run.detail('result.schema')).toContain('result does not match the result schema: (root): must be integer');
  const huge = run.result.records.filter((r) => typeof r.exchange.response?.['result'] === 'string');
  // Only valid payloads get a result (every other case is refused with -32602), and each is the huge string.
  expect(huge.map((r) => r.phase), 'the valid payloads').toEqual(Array.from({ length: RUNS }, () => 'valid'));
  for (const record of huge) expect(record.exchange.responseText?.length).toBeLessThan(130 * 1024);
  const transcriptChars = run.clients.flatMap((c) => c.transcript.entries).reduce((sum, e) => sum + e.text.length, 0);
  expect(transcriptChars).toBeLessThan((huge.length + 40) * 130 * 1024);
  // One copy per kept answer (the parsed result), not three (text, parsed, transcript); the counterexample may add one.
  expect(run.heapGrowth).toBeLessThan((huge.length + 2) * hugeBytes * 1.25);
  expect(waitedOut(run)).toEqual([]);
});

test('an answer over the client frame limit: params.valid-accepted says the client dropped it, not the target', async () => {
  const run = await runAgainst('huge-frame', { server: { hugeBytes: 2 * MiB }, client: { maxFrameBytes: MiB } });
  expect(run.failing).toEqual(['params.valid-accepted']);
  expect(run.detail('params.valid-accepted')).toContain(`the client dropped the connection before an answer: the target sent a frame larger than the client's limit of ${MiB} bytes`);
  expect(waitedOut(run)).toEqual([]);
});

test('two answers to one request: envelope.id-echo names the repeated answer, and it is never taken for the next request', async () => {
  const run = await runAgainst('double-answer');
  // Before the repeat was recognised it answered the next request, whose probe then "passed" an unknown key.
  expect(run.failing).toEqual(['envelope.id-echo']);
  expect(run.detail('envelope.id-echo')).toMatch(/request id "r\d+" was answered 2 times \(again: \{"jsonrpc":"2.0","id":"r\d+","result":-?\d+\}\); each request gets exactly one response/);
  for (const record of run.result.records) expect(record.exchange.correlation === 'exact' || record.exchange.response === undefined).toBe(true);
  expect(waitedOut(run)).toEqual([]);
});

test('a target that drops the connection and cannot be reached again: calls fail as exchanges, they do not throw', async () => {
  const server = await startHostileServer('close-1011');
  const caller = new ResilientCaller(() => RpcClient.connect({ dialect: HERMES_DIALECT, url: server.url, readyTimeoutMs: 0, requestTimeoutMs: REQUEST_TIMEOUT_MS, connectTimeoutMs: 1_000 }));
  const first = await caller.call('math.add', { a: 1, b: 2 });
  expect(first.failure?.message).toContain('code 1011');
  await server.close();
  const second = await caller.call('math.add', { a: 1, b: 2 });
  expect(second.failure?.code).toBe('CONNECTION_CLOSED');
  expect(second.failure?.message).toMatch(/^\[CONNECTION_CLOSED\] cannot send math\.add: the target dropped the connection and a new one could not be opened: cannot connect to ws:\/\/127\.0\.0\.1:\d+\/api\/ws/);
  await caller.close();
});
