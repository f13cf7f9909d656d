/**
 * Reference gateway throughput and latency, always next to bare `ws` servers measured in the same run and process.
 * Workload per connection, in a loop, one request in flight: session.create → prompt.submit → session.events.since.
 *
 * Two peers:
 * - the replay peer, which the goal is measured against: a bare `ws` server that answers each request with the very
 *   frames the gateway sent for it (its response, id swapped, and the events that followed: session.info after a
 *   create, the seven turn events after a prompt), recorded from the gateway at start. Same frames, same bytes, same
 *   client: what is left between the two is the gateway's own work (admission, handlers, shaping, validation,
 *   replay ring, serialization);
 * - the echo server (one echoed frame per request), for continuity with earlier rounds: a gateway request costs
 *   about 3.7 frames on the wire against its 2, so that ratio has a ceiling far below 1 whatever the gateway does.
 *
 * BENCH_GATEWAY_BASELINE=<checkout> adds the gateway of another build (its `dist/gateway/index.js`, e.g. the commit
 * before a change) to the same alternating rounds: before and after measured side by side, against the same peer.
 *
 * Run: npx tsx bench/gateway.ts [seconds per cell]
 */
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { WebSocket, WebSocketServer } from 'ws';
import { startGateway } from '../dist/gateway/index.js';
import { attribute, GATEWAY_BUCKETS, profiled, shareRows } from './lib/timeShare.js';

const LEVELS = [1, 10, 50];
const SECONDS = Number(process.argv[2] ?? process.env['BENCH_SECONDS'] ?? 3);
const WARMUP_MS = 300;
const ROUNDS = 3;

type Frame = { id?: string; method?: string; result?: { session_id?: string }; error?: unknown };

/** A minimal pipelining-free client: one outstanding request at a time, latency per request. */
class BenchClient {
  private readonly pending = new Map<string, (frame: Frame) => void>();
  private nextId = 0;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      if (typeof frame.id !== 'string') return;
      const resolve = this.pending.get(frame.id);
      this.pending.delete(frame.id);
      resolve?.(frame);
    });
  }

  static open(url: string): Promise<BenchClient> {
    const socket = new WebSocket(url);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new BenchClient(socket)));
      socket.once('error', reject);
    });
  }

  async request(method: string, params: unknown, latencies: number[] | undefined): Promise<Frame> {
    const id = `b${this.nextId++}`;
    const started = performance.now();
    const answered = new Promise<Frame>((resolve) => this.pending.set(id, resolve));
    this.socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    const frame = await answered;
    latencies?.push(performance.now() - started);
    if (frame.error) throw new Error(`${method} failed: ${JSON.stringify(frame.error)}`);
    return frame;
  }

  close(): void {
    this.socket.close();
  }
}

export interface Cell {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  /**
   * CPU microseconds of this process (clients and server alike) per request. Load from other processes on a shared
   * machine moves it far less than the rate, so its ratio is the steadier reading of the same comparison.
   */
  readonly cpuUs: number;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** The best of several rounds: the highest rate, the lowest percentiles. */
function best(cells: readonly Cell[]): Cell {
  return {
    rps: Math.max(...cells.map((cell) => cell.rps)),
    p50: Math.min(...cells.map((cell) => cell.p50)),
    p99: Math.min(...cells.map((cell) => cell.p99)),
    cpuUs: Math.min(...cells.map((cell) => cell.cpuUs)),
  };
}

export type Iteration = (client: BenchClient, latencies: number[] | undefined) => Promise<void>;

export async function measure(url: string, connections: number, iteration: Iteration, seconds: number): Promise<Cell> {
  const clients = await Promise.all(Array.from({ length: connections }, () => BenchClient.open(url)));
  const latencies: number[] = [];
  let recording = false;
  let running = true;
  const loops = clients.map(async (client) => {
    while (running) await iteration(client, recording ? latencies : undefined);
  });
  await new Promise((resolve) => setTimeout(resolve, WARMUP_MS));
  recording = true;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  recording = false;
  const cpu = process.cpuUsage(cpuBefore);
  const elapsed = (performance.now() - started) / 1000;
  running = false;
  await Promise.all(loops);
  for (const client of clients) client.close();
  const sorted = [...latencies].sort((a, b) => a - b);
  return { rps: latencies.length / elapsed, p50: percentile(sorted, 50), p99: percentile(sorted, 99), cpuUs: (cpu.user + cpu.system) / Math.max(1, latencies.length) };
}

export const gatewayIteration: Iteration = async (client, latencies) => {
  const created = await client.request('session.create', {}, latencies);
  const sessionId = created.result?.session_id;
  await client.request('prompt.submit', { session_id: sessionId, text: 'benchmark turn' }, latencies);
  await client.request('session.events.since', { session_id: sessionId, last_seen: 0 }, latencies);
};

const echoIteration: Iteration = async (client, latencies) => {
  await client.request('echo', { session_id: '0123abcd', text: 'benchmark turn' }, latencies);
};

interface Peer {
  readonly url: string;
  close(): Promise<void>;
}

function listen(onConnection: (socket: WebSocket) => void): Promise<Peer> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  server.on('connection', onConnection);
  return new Promise((resolve) =>
    server.once('listening', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `ws://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(() => done())) });
    }),
  );
}

function startEchoServer(): Promise<Peer> {
  return listen((socket) => socket.on('message', (data, binary) => socket.send(data, { binary })));
}

/** What the gateway sent for one request method: its response around the id, then the events that followed. */
interface RecordedAnswer {
  readonly before: string;
  readonly after: string;
  readonly events: readonly string[];
}

const ID_MARK = '\u0000id\u0000';
const QUIET_MS = 60;

/** One workload iteration against the gateway: each request answered, then frames collected until a quiet spell. */
async function recordAnswers(url: string): Promise<Map<string, RecordedAnswer>> {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let frames: string[] = [];
  let lastFrameAt = performance.now();
  socket.on('message', (data) => {
    frames.push(data.toString());
    lastFrameAt = performance.now();
  });
  const settled = async (done: () => boolean): Promise<void> => {
    const deadline = performance.now() + 10_000;
    while (!done() || performance.now() - lastFrameAt < QUIET_MS) {
      if (performance.now() > deadline) throw new Error('recording the gateway\'s answers: no quiet spell within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  await settled(() => true);
  frames = [];
  const answers = new Map<string, RecordedAnswer>();
  const ask = async (method: string, params: unknown): Promise<Frame> => {
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 'r', method, params }));
    const response = () => frames.find((text) => (JSON.parse(text) as Frame).id === 'r');
    await settled(() => response() !== undefined);
    const text = response() as string;
    const parsed = JSON.parse(text) as Frame;
    const [before = '', after = ''] = JSON.stringify({ ...parsed, id: ID_MARK }).split(JSON.stringify(ID_MARK));
    answers.set(method, { before, after, events: frames.filter((frame) => frame !== text) });
    frames = [];
    return parsed;
  };
  const created = await ask('session.create', {});
  const sessionId = created.result?.session_id;
  await ask('prompt.submit', { session_id: sessionId, text: 'benchmark turn' });
  await ask('session.events.since', { session_id: sessionId, last_seen: 0 });
  socket.close();
  return answers;
}

/** A bare `ws` server answering each request with the frames the gateway sent for its method, at once. */
function startReplayPeer(answers: ReadonlyMap<string, RecordedAnswer>): Promise<Peer> {
  return listen((socket) =>
    socket.on('message', (data) => {
      const request = JSON.parse(data.toString()) as { id: unknown; method: string };
      const answer = answers.get(request.method);
      if (!answer) return;
      socket.send(answer.before + JSON.stringify(request.id) + answer.after);
      for (const event of answer.events) socket.send(event);
    }),
  );
}

/** Frames on the wire per request of the workload (both directions), gateway and replay peer alike. */
export function framesPerRequest(answers: ReadonlyMap<string, RecordedAnswer>): number {
  const sent = [...answers.values()].reduce((sum, answer) => sum + 1 + answer.events.length, 0);
  return (answers.size + sent) / answers.size;
}

const fixed = (value: number, digits = 2) => value.toFixed(digits).padStart(9);
const ratio = (ours: number, theirs: number) => `${(ours / theirs).toPrecision(3)}x`.padStart(7);

export interface GatewayBenchRow {
  readonly connections: number;
  readonly gateway: Cell;
  /** The bare server replaying the gateway's own frames (the goal's peer). */
  readonly replay: Cell;
  /** The bare echo server (one frame back per request). */
  readonly echo: Cell;
  /** The gateway of the baseline build, when one was given. */
  readonly baseline?: Cell;
}

export interface GatewayBench {
  readonly rows: GatewayBenchRow[];
  /** Frames on the wire per workload request (gateway and replay peer; the echo server's is 2). */
  readonly framesPerRequest: number;
}

type StartGateway = typeof startGateway;

/** The `startGateway` of another build of the project (a checkout with `dist/` built). */
async function baselineGateway(checkout: string): Promise<StartGateway> {
  const module = (await import(pathToFileURL(join(resolve(checkout), 'dist', 'gateway', 'index.js')).href)) as { startGateway: StartGateway };
  return module.startGateway;
}

/** The gateway and both peers (and the baseline build's gateway), one after the other at each connection count, in this process. */
export async function benchGateway(seconds = SECONDS, baselineCheckout = process.env['BENCH_GATEWAY_BASELINE']): Promise<GatewayBench> {
  // No build delay: the benchmark measures the gateway, not the 50 ms the fake agent waits before building.
  const gateway = await startGateway({ buildDelayMs: 0 });
  const baseline = baselineCheckout ? await (await baselineGateway(baselineCheckout))({ buildDelayMs: 0 }) : undefined;
  const answers = await recordAnswers(gateway.url);
  const replay = await startReplayPeer(answers);
  const echo = await startEchoServer();
  const rows: GatewayBenchRow[] = [];
  const servers = [
    ['gateway', gateway.url, gatewayIteration],
    ['replay', replay.url, gatewayIteration],
    ['echo', echo.url, echoIteration],
    ...(baseline ? [['baseline', baseline.url, gatewayIteration] as const] : []),
  ] as const;
  try {
    // One unmeasured second per server first: the JIT and the gateway's lazily compiled validators warm up before
    // the first (1-connection) cell, which would otherwise pay for them alone.
    for (const [, url, iteration] of servers) await measure(url, 10, iteration, 1);
    for (const connections of LEVELS) {
      const cells: Record<'gateway' | 'replay' | 'echo' | 'baseline', Cell[]> = { gateway: [], replay: [], echo: [], baseline: [] };
      // They alternate, round after round, and each keeps its best round: a burst of load from another process on
      // the shared machine then costs every server a round, not one server its only cell.
      for (let round = 0; round < ROUNDS; round++) {
        for (const [name, url, iteration] of servers) cells[name].push(await measure(url, connections, iteration, seconds / ROUNDS));
      }
      rows.push({ connections, gateway: best(cells.gateway), replay: best(cells.replay), echo: best(cells.echo), ...(baseline ? { baseline: best(cells.baseline) } : {}) });
    }
  } finally {
    await Promise.all([echo.close(), replay.close()]);
    await gateway.close();
    await baseline?.close();
  }
  return { rows, framesPerRequest: framesPerRequest(answers) };
}

/** Where the gateway's CPU goes at `connections` connections: one profiled cell after a warm-up one (not measured). */
export async function gatewayTimeShare(seconds = SECONDS, connections = 50): Promise<Map<string, number>> {
  const gateway = await startGateway({ buildDelayMs: 0 });
  try {
    await measure(gateway.url, connections, gatewayIteration, Math.min(seconds, 1));
    const profile = await profiled(async () => void (await measure(gateway.url, connections, gatewayIteration, seconds)));
    return attribute(profile, GATEWAY_BUCKETS);
  } finally {
    await gateway.close();
  }
}

async function main(): Promise<void> {
  console.log(`reference gateway vs bare ws servers, same process and run, ${SECONDS} s per cell in ${ROUNDS} alternating rounds (best kept), each after ${WARMUP_MS} ms warm-up`);
  console.log('request = one of session.create / prompt.submit / session.events.since (buildDelayMs 0); replay peer = the same frames from a bare ws server; echo = one echoed frame');
  const { rows, framesPerRequest: frames } = await benchGateway();
  console.log(`frames on the wire per request: ${frames.toFixed(2)} (gateway and replay peer), 2 (echo)`);
  console.log('');
  console.log(`conns |  gw req/s | replay req/s | gw/replay | echo req/s | gw/echo |  gw p99 ms | replay p99 ms | gw/replay | replay/gw CPU per req${rows[0]?.baseline ? ' | baseline/replay req/s | baseline/replay p99 | replay/baseline CPU per req' : ''}`);
  for (const { connections, gateway: ours, replay, echo, baseline } of rows) {
    console.log(
      [
        String(connections).padStart(5),
        fixed(ours.rps, 0),
        `   ${fixed(replay.rps, 0)}`,
        `  ${ratio(ours.rps, replay.rps)}`,
        ` ${fixed(echo.rps, 0)}`,
        ratio(ours.rps, echo.rps),
        ` ${fixed(ours.p99, 3)}`,
        `    ${fixed(replay.p99, 3)}`,
        `  ${ratio(ours.p99, replay.p99)}`,
        `             ${ratio(replay.cpuUs, ours.cpuUs)}`,
        ...(baseline ? [`            ${ratio(baseline.rps, replay.rps)}`, `            ${ratio(baseline.p99, replay.p99)}`, `                   ${ratio(replay.cpuUs, baseline.cpuUs)}`] : []),
      ].join(' | '),
    );
  }
  console.log('');
  console.log(shareRows(await gatewayTimeShare()).join('\n'));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
