/**
 * Per-frame overhead of `contract-gate proxy`, against a direct connection to the same reference gateway in the
 * same run. Direct and proxied round trips alternate, so both see the same machine load. A round trip crosses the
 * proxy twice (request, answer), so the overhead per frame is half the difference of the round trips; the watch's
 * own time per frame (judging, transcript) is measured inside the proxy as well.
 * Run: npx tsx bench/proxyOverhead.ts [round trips per workload, default 2000]
 */
import { cpus, loadavg } from 'node:os';
import { WebSocket } from 'ws';
import { startGateway } from '../dist/gateway/index.js';
import { SESSION_LIFECYCLE_CONTRACT } from '../dist/profiles/hermes/paths.js';
import { loadContract } from '../dist/src/contracts/index.js';
import { startProxy } from '../dist/src/proxy/index.js';
import { resolveProfile } from '../dist/profiles/index.js';

const ROUNDS = Number(process.argv[2] ?? process.env['BENCH_ROUNDS'] ?? 2000);
const TURNS = Math.max(20, Math.round(ROUNDS / 20));
const GOAL_MS = 0.5;

type Frame = { id?: string; method?: string; result?: { session_id?: string }; error?: unknown; params?: { type?: string; payload?: { text?: string } } };

class BenchClient {
  private readonly pending = new Map<string, (frame: Frame) => void>();
  private readonly waiters = new Set<(frame: Frame) => boolean>();
  private nextId = 0;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      for (const waiter of [...this.waiters]) if (waiter(frame)) this.waiters.delete(waiter);
      if (typeof frame.id !== 'string' || frame.method) return;
      const resolve = this.pending.get(frame.id);
      this.pending.delete(frame.id);
      resolve?.(frame);
    });
  }

  static async open(url: string): Promise<BenchClient> {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    const client = new BenchClient(socket);
    const ready = client.until((f) => f.params?.type === 'gateway.ready');
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    await ready;
    return client;
  }

  until(match: (frame: Frame) => boolean): Promise<Frame> {
    return new Promise((resolve) => this.waiters.add((frame) => (match(frame) ? (resolve(frame), true) : false)));
  }

  async request(method: string, params: unknown): Promise<Frame> {
    const id = `b${this.nextId++}`;
    const answered = new Promise<Frame>((resolve) => this.pending.set(id, resolve));
    this.socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    const frame = await answered;
    if (frame.error) throw new Error(`${method} failed: ${JSON.stringify(frame.error)}`);
    return frame;
  }

  close(): void {
    this.socket.close();
  }
}

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

interface Lane {
  client: BenchClient;
  session: string;
  latencies: number[];
  turns: number[];
}

async function lane(url: string): Promise<Lane> {
  const client = await BenchClient.open(url);
  const built = client.until((f) => f.params?.type === 'session.info');
  const created = await client.request('session.create', { cwd: '/tmp' });
  const session = created.result?.session_id ?? '';
  await built;
  return { client, session, latencies: [], turns: [] };
}

async function titleRound(lane: Lane, round: number): Promise<void> {
  const started = performance.now();
  await lane.client.request('session.title', { session_id: lane.session, title: `bench ${round}` });
  lane.latencies.push(performance.now() - started);
}

/** One turn: prompt.submit, then every streamed event until message.complete (tens of event frames). */
async function turn(lane: Lane, round: number): Promise<void> {
  const text = `turn ${round}`;
  const started = performance.now();
  const done = lane.client.until((f) => f.params?.type === 'message.complete' && f.params.payload?.text === `echo: ${text}`);
  await lane.client.request('prompt.submit', { session_id: lane.session, text });
  await done;
  lane.turns.push(performance.now() - started);
}

async function main(): Promise<void> {
  const gateway = await startGateway({ contractPaths: [SESSION_LIFECYCLE_CONTRACT], buildDelayMs: 0 });
  const server = await loadContract(SESSION_LIFECYCLE_CONTRACT);
  const proxy = await startProxy({ upstream: gateway.url, server, profile: resolveProfile(undefined, server) });
  const watchTimes: number[] = [];
  const frame = proxy.watch.frame.bind(proxy.watch);
  proxy.watch.frame = (conn, from, data, isBinary) => {
    const started = performance.now();
    frame(conn, from, data, isBinary);
    watchTimes.push(performance.now() - started);
  };
  const direct = await lane(gateway.url);
  const proxied = await lane(proxy.url);
  for (let i = 0; i < 200; i++) {
    await titleRound(direct, i);
    await titleRound(proxied, i);
  }
  direct.latencies.length = 0;
  proxied.latencies.length = 0;
  watchTimes.length = 0;
  for (let i = 0; i < ROUNDS; i++) {
    // Alternate the order so that neither lane always runs right after the other.
    const [first, second] = i % 2 === 0 ? [direct, proxied] : [proxied, direct];
    await titleRound(first, i);
    await titleRound(second, i);
  }
  for (let i = 0; i < TURNS; i++) {
    const [first, second] = i % 2 === 0 ? [direct, proxied] : [proxied, direct];
    await turn(first, i);
    await turn(second, i);
  }
  const framesPerTurn = (proxy.watch.framesRelayed - ROUNDS * 2) / TURNS;
  direct.client.close();
  proxied.client.close();
  await proxy.stop(`${process.env['TMPDIR'] ?? '/tmp'}/contract-gate-proxy-bench`, 'bench');
  await gateway.close();

  const rows: Array<[string, number, number]> = [
    ['session.title round trip p50 (ms)', quantile(direct.latencies, 0.5), quantile(proxied.latencies, 0.5)],
    ['session.title round trip p99 (ms)', quantile(direct.latencies, 0.99), quantile(proxied.latencies, 0.99)],
    [`turn (~${Math.round(framesPerTurn)} frames) p50 (ms)`, quantile(direct.turns, 0.5), quantile(proxied.turns, 0.5)],
    [`turn (~${Math.round(framesPerTurn)} frames) p99 (ms)`, quantile(direct.turns, 0.99), quantile(proxied.turns, 0.99)],
  ];
  const perFrameP99 = (quantile(proxied.latencies, 0.99) - quantile(direct.latencies, 0.99)) / 2;
  const perFrameP50 = (quantile(proxied.latencies, 0.5) - quantile(direct.latencies, 0.5)) / 2;
  const watchP99 = quantile(watchTimes, 0.99);
  // Round i of each lane ran back to back: their difference cancels most of the load both saw.
  const paired = direct.latencies.map((latency, i) => ((proxied.latencies[i] ?? latency) - latency) / 2);
  const pairedP99 = quantile(paired, 0.99);
  const fmt = (n: number): string => n.toFixed(3);
  console.log(`contract-gate proxy overhead: ${ROUNDS} session.title round trips and ${TURNS} turns per lane, direct and proxied alternating, one process (gateway, proxy, clients); ${cpus().length} cores, load average ${loadavg().map((n) => n.toFixed(1)).join(' / ')} at the end\n`);
  console.log('| measure | direct | through the proxy | proxy / direct |');
  console.log('|---|--:|--:|--:|');
  for (const [name, a, b] of rows) console.log(`| ${name} | ${fmt(a)} | ${fmt(b)} | ${(b / a).toFixed(2)}× |`);
  console.log('\n| per-frame overhead | measured (ms) | goal (ms) | measured / goal |');
  console.log('|---|--:|--:|--:|');
  console.log(`| p50, half the round-trip difference | ${fmt(perFrameP50)} | ${GOAL_MS} | ${(perFrameP50 / GOAL_MS).toFixed(2)} |`);
  console.log(`| p99, half the round-trip difference | ${fmt(perFrameP99)} | ${GOAL_MS} | ${(perFrameP99 / GOAL_MS).toFixed(2)} |`);
  console.log(`| p99 of the paired round-trip differences, halved | ${fmt(pairedP99)} | ${GOAL_MS} | ${(pairedP99 / GOAL_MS).toFixed(2)} |`);
  console.log(`| p99, the watch's own time per frame (judge + transcript, after the frame was passed on) | ${fmt(watchP99)} | ${GOAL_MS} | ${(watchP99 / GOAL_MS).toFixed(2)} |`);
  console.log(`\n${perFrameP99 <= GOAL_MS ? 'within' : 'over'} the goal of ${GOAL_MS} ms per frame at p99`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
