/**
 * Reference gateway throughput and latency, always next to a bare `ws` echo server measured in the same run.
 * Workload per connection, in a loop: session.create → prompt.submit → session.events.since (the gateway) versus
 * one echoed JSON-RPC frame of similar size (the peer). Run: npx tsx bench/gateway.ts [seconds per cell]
 */
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { WebSocket, WebSocketServer } from 'ws';
import { startGateway } from '../gateway/index.js';

const LEVELS = [1, 10, 50];
const SECONDS = Number(process.argv[2] ?? process.env['BENCH_SECONDS'] ?? 3);
const WARMUP_MS = 400;

type Frame = { id?: string; result?: { session_id?: string }; error?: unknown };

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
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

type Iteration = (client: BenchClient, latencies: number[] | undefined) => Promise<void>;

async function measure(url: string, connections: number, iteration: Iteration, seconds: number): Promise<Cell> {
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
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  recording = false;
  const elapsed = (performance.now() - started) / 1000;
  running = false;
  await Promise.all(loops);
  for (const client of clients) client.close();
  const sorted = [...latencies].sort((a, b) => a - b);
  return { rps: latencies.length / elapsed, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

const gatewayIteration: Iteration = async (client, latencies) => {
  const created = await client.request('session.create', {}, latencies);
  const sessionId = created.result?.session_id;
  await client.request('prompt.submit', { session_id: sessionId, text: 'benchmark turn' }, latencies);
  await client.request('session.events.since', { session_id: sessionId, last_seen: 0 }, latencies);
};

const echoIteration: Iteration = async (client, latencies) => {
  await client.request('echo', { session_id: '0123abcd', text: 'benchmark turn' }, latencies);
};

function startEchoServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  server.on('connection', (socket) => socket.on('message', (data, binary) => socket.send(data, { binary })));
  return new Promise((resolve) =>
    server.once('listening', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `ws://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(() => done())) });
    }),
  );
}

const fixed = (value: number, digits = 2) => value.toFixed(digits).padStart(9);
const ratio = (ours: number, theirs: number) => `${(ours / theirs).toPrecision(3)}x`.padStart(7);

export interface GatewayBenchRow {
  readonly connections: number;
  readonly gateway: Cell;
  readonly echo: Cell;
}

/** The gateway and the echo server, one after the other at each connection count, in this process. */
export async function benchGateway(seconds = SECONDS): Promise<GatewayBenchRow[]> {
  // No build delay: the benchmark measures the gateway, not the 50 ms the fake agent waits before building.
  const gateway = await startGateway({ buildDelayMs: 0 });
  const echo = await startEchoServer();
  const rows: GatewayBenchRow[] = [];
  try {
    for (const connections of LEVELS) {
      const ours = await measure(gateway.url, connections, gatewayIteration, seconds);
      const theirs = await measure(echo.url, connections, echoIteration, seconds);
      rows.push({ connections, gateway: ours, echo: theirs });
    }
  } finally {
    await echo.close();
    await gateway.close();
  }
  return rows;
}

async function main(): Promise<void> {
  console.log(`reference gateway vs bare ws echo, same process and run, ${SECONDS} s per cell after ${WARMUP_MS} ms warm-up`);
  console.log('gateway request = one of session.create / prompt.submit / session.events.since (buildDelayMs 0); echo request = one echoed frame');
  console.log('');
  console.log('conns |  gw req/s | echo req/s | gw/echo |  gw p50 ms | echo p50 ms | gw/echo |  gw p99 ms | echo p99 ms | gw/echo');
  for (const { connections, gateway: ours, echo: theirs } of await benchGateway()) {
    console.log(
      [
        String(connections).padStart(5),
        fixed(ours.rps, 0),
        ` ${fixed(theirs.rps, 0)}`,
        ratio(ours.rps, theirs.rps),
        ` ${fixed(ours.p50, 3)}`,
        `  ${fixed(theirs.p50, 3)}`,
        ratio(ours.p50, theirs.p50),
        ` ${fixed(ours.p99, 3)}`,
        `  ${fixed(theirs.p99, 3)}`,
        ratio(ours.p99, theirs.p99),
      ].join(' | '),
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
