/**
 * The validating proxy against a direct connection to the same reference gateway, measured side by side in one run.
 * The gateway and the load generator share this process; the proxy runs as `contract-gate proxy` in a process of
 * its own, as it is deployed. Workload per connection, one request in flight: session.create → prompt.submit →
 * session.events.since, at 50 connections by default.
 * Direct and proxied cells alternate, round after round, each keeping its best round.
 *
 * A request's round trip crosses the proxy twice (request, answer), so the proxy's p99 cost per frame is half the
 * difference of the p99 round trips. BENCH_PROXY_PROFILE=<dir> writes the proxy process's CPU profile there;
 * BENCH_PROXY_BASELINE=<checkout> adds the proxy of another build (its bin/contract-gate.js) to the same rounds.
 *
 * Run: npx tsx bench/proxy.ts [seconds per cell]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startGateway } from '../dist/gateway/index.js';
import { HERMES_FULL_CONTRACT } from '../dist/profiles/hermes/paths.js';
import { gatewayIteration, measure, type Cell } from './gateway.js';
import { cpuOf, peakRssMbOf } from './lib/processTree.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const SECONDS = Number(process.argv[2] ?? process.env['BENCH_SECONDS'] ?? 3);
const ROUNDS = 3;
export const PROXY_CONNECTIONS = 50;
/** Goals of issue 29: at most 1 ms added per frame at p99, at least 0.8× the direct throughput. */
export const PROXY_GOALS = { perFrameP99Ms: 1, throughput: 0.8 } as const;

export interface ProxyBench {
  readonly connections: number;
  readonly direct: Cell;
  readonly proxied: Cell;
  /** Half the difference of the p99 round trips: what the proxy adds to one frame at p99. */
  readonly perFrameP99Ms: number;
  readonly throughput: number;
  /** The baseline build's proxy, when one was given. */
  readonly baseline?: Cell;
  /** The proxy process's CPU per relayed request and its peak memory; the baseline build's beside it. */
  readonly process: ProxyProcessFigures;
  readonly baselineProcess?: ProxyProcessFigures;
}

export interface ProxyProcessFigures {
  /**
   * CPU microseconds of the proxy process after its start-up, per request counted in the measured windows (the warm-up
   * round's included). Each cell's 300 ms ramp-up is spent but not counted, alike for both builds: a figure to compare
   * builds by, a few percent above the true cost.
   */
  readonly cpuUsPerRequest: number | undefined;
  readonly peakRssMb: number | undefined;
  readonly requests: number;
}

/** What a proxy process spent once it listened, and its peak memory, read from /proc before it is stopped (Linux; undefined elsewhere). */
export interface ProxyUsage {
  readonly cpuMs: number | undefined;
  readonly peakRssMb: number | undefined;
}

interface RunningProxyProcess {
  readonly url: string;
  stop(): Promise<ProxyUsage>;
}

/** `contract-gate proxy` in front of `upstream`, on a free port; resolves once it says where it listens. */
function spawnProxy(upstream: string, reportDir: string, checkout = REPO): Promise<RunningProxyProcess> {
  const profileDir = checkout === REPO ? process.env['BENCH_PROXY_PROFILE'] : undefined;
  const node = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child: ChildProcess = spawn(process.execPath, [...node, join(checkout, 'bin', 'contract-gate.js'), 'proxy', '--upstream', upstream, '--contract', HERMES_FULL_CONTRACT, '--port', '0', '--report-dir', reportDir], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const url = /listening on (ws:\/\/\S+)/.exec(output)?.[1];
      if (!url) return;
      child.stdout?.off('data', onData);
      // The start-up (loading the contract, compiling its validators) is not the relay's cost per request.
      const pid = child.pid ?? -1;
      const startUp = cpuOf(pid);
      child.stdout?.resume();
      resolve({
        url,
        stop: async () => {
          const spent = cpuOf(pid);
          const usage = { cpuMs: spent === undefined || startUp === undefined ? undefined : spent - startUp, peakRssMb: peakRssMbOf(pid) };
          child.kill('SIGINT');
          await exited;
          return usage;
        },
      });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`contract-gate proxy exited (${code}) before listening: ${output.slice(-500)}`)));
  });
}

/** Direct and proxied cells at `connections` connections, alternating; the best round of each. */
export async function benchProxy(seconds = SECONDS, connections = PROXY_CONNECTIONS, baselineCheckout = process.env['BENCH_PROXY_BASELINE']): Promise<ProxyBench> {
  const gateway = await startGateway({ contractPaths: [HERMES_FULL_CONTRACT], buildDelayMs: 0 });
  const reportDir = mkdtempSync(join(tmpdir(), 'contract-gate-proxy-bench-'));
  const proxy = await spawnProxy(gateway.url, join(reportDir, 'proxy'));
  const baseline = baselineCheckout ? await spawnProxy(gateway.url, join(reportDir, 'baseline'), baselineCheckout) : undefined;
  const direct: Cell[] = [];
  const proxied: Cell[] = [];
  const before: Cell[] = [];
  // Requests each proxy carried (a cell's rate times its length; the warm-up ran 1 s), and what its process spent.
  const carried = { current: 0, baseline: 0 };
  const usage: { current?: ProxyUsage; baseline?: ProxyUsage } = {};
  try {
    // Unmeasured warm-up of every path: the JIT, the gateway's and the proxy's lazily compiled validators.
    for (const url of [gateway.url, proxy.url, ...(baseline ? [baseline.url] : [])]) {
      const warm = await measure(url, 10, gatewayIteration, 1);
      if (url === proxy.url) carried.current += warm.rps;
      if (url === baseline?.url) carried.baseline += warm.rps;
    }
    for (let round = 0; round < ROUNDS; round++) {
      direct.push(await measure(gateway.url, connections, gatewayIteration, seconds / ROUNDS));
      proxied.push(await measure(proxy.url, connections, gatewayIteration, seconds / ROUNDS));
      if (baseline) before.push(await measure(baseline.url, connections, gatewayIteration, seconds / ROUNDS));
    }
  } finally {
    usage.current = await proxy.stop();
    if (baseline) usage.baseline = await baseline.stop();
    await gateway.close();
    rmSync(reportDir, { recursive: true, force: true });
  }
  const best = (cells: Cell[]): Cell => ({
    rps: Math.max(...cells.map((cell) => cell.rps)),
    p50: Math.min(...cells.map((cell) => cell.p50)),
    p99: Math.min(...cells.map((cell) => cell.p99)),
    cpuUs: Math.min(...cells.map((cell) => cell.cpuUs)),
  });
  const d = best(direct);
  const p = best(proxied);
  const figures = (spent: ProxyUsage | undefined, cells: Cell[], warmUp: number): ProxyProcessFigures => {
    const requests = warmUp + cells.reduce((sum, cell) => sum + cell.rps * (seconds / ROUNDS), 0);
    return { requests, cpuUsPerRequest: spent?.cpuMs === undefined ? undefined : (spent.cpuMs * 1000) / requests, peakRssMb: spent?.peakRssMb };
  };
  return {
    connections,
    direct: d,
    proxied: p,
    perFrameP99Ms: (p.p99 - d.p99) / 2,
    throughput: p.rps / d.rps,
    process: figures(usage.current, proxied, carried.current),
    ...(baseline ? { baseline: best(before), baselineProcess: figures(usage.baseline, before, carried.baseline) } : {}),
  };
}

async function main(): Promise<void> {
  const result = await benchProxy();
  const fmt = (n: number, digits = 3): string => n.toFixed(digits);
  console.log(`contract-gate proxy (own process) vs a direct connection to the same gateway, ${result.connections} connections, ${SECONDS} s per path in ${ROUNDS} alternating rounds (best kept)\n`);
  console.log('| measure | direct | through the proxy | proxy / direct |');
  console.log('|---|--:|--:|--:|');
  console.log(`| requests per second | ${fmt(result.direct.rps, 0)} | ${fmt(result.proxied.rps, 0)} | ${fmt(result.throughput, 2)}× |`);
  console.log(`| round trip p50 (ms) | ${fmt(result.direct.p50)} | ${fmt(result.proxied.p50)} | ${fmt(result.proxied.p50 / result.direct.p50, 2)}× |`);
  console.log(`| round trip p99 (ms) | ${fmt(result.direct.p99)} | ${fmt(result.proxied.p99)} | ${fmt(result.proxied.p99 / result.direct.p99, 2)}× |`);
  const before = result.baseline;
  if (before) {
    console.log(`| baseline build's proxy: requests per second | | ${fmt(before.rps, 0)} | ${fmt(before.rps / result.direct.rps, 2)}× |`);
    console.log(`| baseline build's proxy: round trip p99 (ms) | | ${fmt(before.p99)} | ${fmt(before.p99 / result.direct.p99, 2)}× |`);
  }
  const processLine = (label: string, figures: ProxyProcessFigures | undefined): void => {
    if (!figures) return;
    const cpu = figures.cpuUsPerRequest === undefined ? 'n/a' : `${fmt(figures.cpuUsPerRequest, 1)} µs`;
    const rss = figures.peakRssMb === undefined ? 'n/a' : `${fmt(figures.peakRssMb, 0)} MB`;
    console.log(`${label}: ${cpu} CPU per request, peak RSS ${rss} after ${fmt(figures.requests, 0)} requests`);
  };
  console.log('');
  processLine('proxy process', result.process);
  processLine("baseline build's proxy process", result.baselineProcess);
  console.log(`\np99 added per frame (half the p99 round-trip difference): ${fmt(result.perFrameP99Ms)} ms (goal ≤ ${PROXY_GOALS.perFrameP99Ms} ms); throughput ${fmt(result.throughput, 2)}× direct (goal ≥ ${PROXY_GOALS.throughput}×)`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
