/**
 * `npm run bench`: one table, each figure next to its goal, every ratio measured side by side in this run (the
 * machines are shared and noisy: ratios, not absolute times, are what count).
 *
 * - reference gateway vs a bare `ws` server sending the gateway's own frames (and vs a one-frame echo server) at 1,
 *   10 and 50 connections: requests per second and p99 latency, and where the gateway's CPU goes (bench/gateway.ts);
 * - the gateway core alone (no sockets): CPU per request of the same workload (bench/gatewayCore.ts);
 * - the validating proxy (`contract-gate proxy`, its own process) vs a direct connection at 50 connections: p99
 *   added per frame and throughput (bench/proxy.ts);
 * - 50 connections × 200 calls at once: no lost, duplicated or reordered event (bench/lib/eventLoss.ts);
 * - the method engine vs a bare `ws` request/response loop replaying its requests, and vs @open-rpc/test-coverage,
 *   on the Hermes session-lifecycle and the MetaMask documents, and where a judged call's CPU goes in each
 *   (bench/fuzz.ts);
 * - `contract-gate --help` start-up, a one-method run with the command line's code cache warm and off, and a default
 *   `contract-gate run` on the session-lifecycle document with each runner (the engine, then `--runner playwright`):
 *   wall time, CPU and peak memory of the process tree and of its largest process (BENCH_FULL=1 adds the full Hermes
 *   document);
 * - the same document against a target spawned over stdio, its processes continued between method runs and one per
 *   connection: wall time, CPU of the tree with the targets, processes started.
 *
 * Every benchmark imports the compiled JavaScript in dist/ (what `contract-gate` runs), not the TypeScript sources:
 * tsx's transform wraps every function in a name-keeping helper that costs the gateway about 8% of its CPU.
 *
 * Writes bench-results/bench.md. BENCH_SECONDS sets the seconds per gateway cell (default 2). BENCH_GATEWAY_BASELINE
 * and BENCH_PROXY_BASELINE name a checkout of another build (dist/ built) measured in the same rounds.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchSubject, ENGINE_GOALS, engineTimeShare, SUBJECTS } from './fuzz.js';
import { benchGateway, gatewayTimeShare } from './gateway.js';
import { benchGatewayCore } from './gatewayCore.js';
import { benchProxy, PROXY_GOALS, type ProxyProcessFigures } from './proxy.js';
import { eventLoss } from './lib/eventLoss.js';
import { shareRows } from './lib/timeShare.js';
import { runMeasured, type TreeRun } from './lib/processTree.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(REPO, 'bench-results');

interface Line {
  readonly measure: string;
  readonly value: string;
  readonly goal: string;
  readonly met: boolean | undefined;
}

const times = (value: number): string => `${value.toFixed(2)}×`;
/** The middle of five measurements. */
const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[2] as number;

type Runner = 'in-process' | 'playwright';

async function measuredRun(contract: string, runner: Runner): Promise<TreeRun> {
  const reportDir = join(OUT, `bench-run-${runner}`);
  return runMeasured([join(REPO, 'bin', 'contract-gate.js'), 'run', '--contract', contract, '--seed', '1', '--runner', runner, '--report-dir', reportDir], { cwd: REPO, env: { CI: 'true' } });
}

/** A default run with each runner, one after the other: wall time, CPU of the process tree, the largest process. */
async function defaultRun(contract: string, goalSeconds: number): Promise<Line[]> {
  const name = contract.split('/').pop();
  const engine = await measuredRun(contract, 'in-process');
  const playwright = await measuredRun(contract, 'playwright');
  const checks = /(\d+) checks in/.exec(engine.stdout)?.[1] ?? '?';
  const seconds = engine.wallMs / 1000;
  // The verdict and counts, not where each report went (the two runs write to different folders).
  const summaryOf = (stdout: string): string | undefined => /(?:PASS|FAIL) — .*?(?=; matrix |$)/m.exec(stdout)?.[0];
  const same = summaryOf(engine.stdout) !== undefined && summaryOf(engine.stdout) === summaryOf(playwright.stdout);
  return [
    { measure: `default run, ${name} (${checks} checks, exit ${engine.code}): wall s`, value: seconds.toFixed(1), goal: `≤ ${goalSeconds} s on 2 cores`, met: engine.code === 0 && seconds <= goalSeconds },
    { measure: `default run / --runner playwright (exit ${playwright.code}, ${(playwright.wallMs / 1000).toFixed(1)} s), ${name}: wall`, value: times(engine.wallMs / playwright.wallMs), goal: 'reported; same summary line', met: same },
    { measure: `default run / --runner playwright, ${name}: CPU of the process tree`, value: `${times(engine.cpuMs / playwright.cpuMs)} (${(engine.cpuMs / 1000).toFixed(1)} s / ${(playwright.cpuMs / 1000).toFixed(1)} s)`, goal: 'reported', met: undefined },
    { measure: `default run, ${name}: peak RSS of the largest process (--runner playwright: ${playwright.peakProcessRssMb.toFixed(0)} MB)`, value: `${engine.peakProcessRssMb.toFixed(0)} MB`, goal: '≤ 300 MB', met: engine.peakProcessRssMb <= 300 },
    { measure: `default run, ${name}: peak RSS of the process tree (--runner playwright: ${playwright.peakTreeRssMb.toFixed(0)} MB)`, value: `${engine.peakTreeRssMb.toFixed(0)} MB`, goal: 'reported', met: undefined },
  ];
}

/** Target processes a run started: its transcripts' stdio connections less those that continued a running process. */
function processStarts(reportDir: string): number {
  let starts = 0;
  for (const name of readdirSync(join(reportDir, 'transcripts'))) {
    const text = readFileSync(join(reportDir, 'transcripts', name), 'utf8');
    starts += (text.match(/^-- \[[^\]]+\] connect stdio:/gm) ?? []).length - (text.match(/^-- \[[^\]]+\] continues the process /gm) ?? []).length;
  }
  return starts;
}

/**
 * A default run of `contract` against `contract-gate serve --stdio` (a target the harness spawns), with the processes
 * continued from one method run to the next (the default) and with one process per connection (--no-stdio-reuse),
 * one after the other: wall time, the CPU of the whole process tree (the spawned targets included) and the starts.
 */
async function stdioRun(contract: string): Promise<Line[]> {
  const name = contract.split('/').pop();
  const target = `stdio:node ${join(REPO, 'bin', 'contract-gate.js')} serve --stdio --contract ${contract}`;
  const run = async (label: string, extra: string[]): Promise<TreeRun & { starts: number }> => {
    const reportDir = join(OUT, `bench-stdio-${label}`);
    const measured = await runMeasured([join(REPO, 'bin', 'contract-gate.js'), 'run', '--target', target, '--contract', contract, '--seed', '1', '--report-dir', reportDir, ...extra], { cwd: REPO, env: { CI: 'true' } });
    return { ...measured, starts: processStarts(reportDir) };
  };
  const reused = await run('reuse', []);
  const apart = await run('per-connection', ['--no-stdio-reuse']);
  const summaryOf = (stdout: string): string | undefined => /(?:PASS|FAIL) — .*?(?=; matrix |$)/m.exec(stdout)?.[0];
  const same = summaryOf(reused.stdout) !== undefined && summaryOf(reused.stdout) === summaryOf(apart.stdout);
  const seconds = (ms: number): string => (ms / 1000).toFixed(1);
  return [
    {
      measure: `run over stdio, ${name}: wall, processes continued (default) / one per connection (--no-stdio-reuse; ${seconds(reused.wallMs)} s / ${seconds(apart.wallMs)} s, exit ${reused.code} / ${apart.code})`,
      value: times(reused.wallMs / apart.wallMs),
      goal: 'reported; same summary line',
      met: same,
    },
    { measure: `run over stdio, ${name}: CPU of the process tree, targets included, continued / one per connection (${seconds(reused.reapedCpuMs)} s / ${seconds(apart.reapedCpuMs)} s)`, value: times(reused.reapedCpuMs / apart.reapedCpuMs), goal: 'reported', met: undefined },
    { measure: `run over stdio, ${name}: target processes the transcripts' connections started, continued / one per connection`, value: `${reused.starts} / ${apart.starts}`, goal: 'reported', met: undefined },
  ];
}

/** `contract-gate --help`, the median of five starts, beside a bare `node -e 0` start measured in the same loop. */
async function helpStart(): Promise<Line[]> {
  const help: number[] = [];
  const bare: number[] = [];
  for (let round = 0; round < 5; round++) {
    help.push((await runMeasured([join(REPO, 'bin', 'contract-gate.js'), '--help'], { cwd: REPO })).wallMs);
    bare.push((await runMeasured(['-e', '0'], { cwd: REPO })).wallMs);
  }
  const seconds = median(help) / 1000;
  return [{ measure: `contract-gate --help, median of 5 (bare node start ${(median(bare) / 1000).toFixed(2)} s)`, value: `${seconds.toFixed(2)} s`, goal: '≤ 0.3 s', met: seconds <= 0.3 }];
}

/**
 * A one-method `contract-gate run`, CPU of the process tree, with the command line's code cache warm and with it off
 * (`CONTRACT_GATE_CODE_CACHE=off`: the bundle compiled as on a machine's first command), alternating, medians of five.
 * The validator cache is warm for both.
 */
async function shortRun(): Promise<Line[]> {
  const args = [join(REPO, 'bin', 'contract-gate.js'), 'run', '--contract', 'profiles/hermes/contracts/session-lifecycle.openrpc.json', '--grep', '@method:session\\.list(?=\\s|$)', '--runs', '3', '--seed', '1', '--report-dir', join(OUT, 'bench-short-run')];
  const cached: number[] = [];
  const compiled: number[] = [];
  await runMeasured(args, { cwd: REPO, env: { CI: 'true' } });
  for (let round = 0; round < 5; round++) {
    cached.push((await runMeasured(args, { cwd: REPO, env: { CI: 'true' } })).reapedCpuMs);
    compiled.push((await runMeasured(args, { cwd: REPO, env: { CI: 'true', CONTRACT_GATE_CODE_CACHE: 'off' } })).reapedCpuMs);
  }
  return [
    {
      measure: `a one-method run, CPU of the process tree: code cache warm / off (${(median(cached) / 1000).toFixed(2)} s / ${(median(compiled) / 1000).toFixed(2)} s, medians of 5)`,
      value: times(median(cached) / median(compiled)),
      goal: 'reported',
      met: undefined,
    },
  ];
}

async function main(): Promise<void> {
  const started = performance.now();
  const lines: Line[] = [];
  const gateway = await benchGateway(Number(process.env['BENCH_SECONDS'] ?? 2));
  for (const row of gateway.rows) {
    const rps = row.gateway.rps / row.replay.rps;
    const p99 = row.gateway.p99 / row.replay.p99;
    const cpu = row.replay.cpuUs / row.gateway.cpuUs;
    lines.push({ measure: `gateway / bare ws server sending the same frames, requests per second, ${row.connections} connection(s)`, value: times(rps), goal: '≥ 0.85×', met: rps >= 0.85 });
    lines.push({ measure: `gateway / bare ws server sending the same frames, p99 latency, ${row.connections} connection(s)`, value: times(p99), goal: '≤ 1.3×', met: p99 <= 1.3 });
    lines.push({ measure: `bare ws server / gateway, CPU of this process per request (the steadier reading on a loaded machine), ${row.connections} connection(s)`, value: times(cpu), goal: 'reported', met: undefined });
    if (row.baseline) {
      lines.push({ measure: `baseline build's gateway / bare ws server, requests per second, ${row.connections} connection(s)`, value: times(row.baseline.rps / row.replay.rps), goal: 'reported', met: undefined });
      lines.push({ measure: `baseline build's gateway / bare ws server, p99 latency, ${row.connections} connection(s)`, value: times(row.baseline.p99 / row.replay.p99), goal: 'reported', met: undefined });
    }
  }
  for (const row of gateway.rows) {
    const rps = row.gateway.rps / row.echo.rps;
    lines.push({ measure: `gateway / bare ws echo (one frame back; ${gateway.framesPerRequest.toFixed(2)} frames per gateway request against 2), requests per second, ${row.connections} connection(s)`, value: times(rps), goal: 'reported', met: undefined });
  }
  const core = await benchGatewayCore(Number(process.env['BENCH_SECONDS'] ?? 2) * 1.5);
  lines.push({ measure: 'gateway core without sockets, CPU per request (the same workload, 50 connections)', value: `${core.currentUs.toFixed(1)} µs`, goal: 'reported', met: undefined });
  if (core.baselineUs !== undefined) lines.push({ measure: "gateway core without sockets, CPU per request, this build / the baseline build's", value: times(core.currentUs / core.baselineUs), goal: 'reported', met: undefined });
  const proxy = await benchProxy(Number(process.env['BENCH_SECONDS'] ?? 2) * 1.5);
  lines.push({ measure: `proxy, p99 added per frame (half the p99 round-trip difference), ${proxy.connections} connections`, value: `${proxy.perFrameP99Ms.toFixed(2)} ms`, goal: `≤ ${PROXY_GOALS.perFrameP99Ms} ms`, met: proxy.perFrameP99Ms <= PROXY_GOALS.perFrameP99Ms });
  lines.push({ measure: `proxy / direct connection, requests per second, ${proxy.connections} connections`, value: times(proxy.throughput), goal: `≥ ${PROXY_GOALS.throughput}×`, met: proxy.throughput >= PROXY_GOALS.throughput });
  if (proxy.baseline) lines.push({ measure: `baseline build's proxy / direct connection, requests per second`, value: times(proxy.baseline.rps / proxy.direct.rps), goal: 'reported', met: undefined });
  const proxyProcess = (figures: ProxyProcessFigures): string => `${figures.cpuUsPerRequest?.toFixed(1) ?? 'n/a'} µs CPU per request, peak RSS ${figures.peakRssMb?.toFixed(0) ?? 'n/a'} MB`;
  lines.push({ measure: `proxy process, after ${proxy.process.requests.toFixed(0)} requests`, value: proxyProcess(proxy.process), goal: 'reported', met: undefined });
  if (proxy.baselineProcess) lines.push({ measure: "baseline build's proxy process", value: proxyProcess(proxy.baselineProcess), goal: 'reported', met: undefined });
  const loss = await eventLoss();
  lines.push({
    measure: `${loss.connections} connections × ${loss.callsPerConnection} calls at once: lost events, events out of order, failed calls`,
    value: `${loss.lostEvents}, ${loss.disorderedEvents}, ${loss.failedCalls}`,
    goal: '0, 0, 0',
    met: loss.lostEvents === 0 && loss.disorderedEvents === 0 && loss.failedCalls === 0,
  });
  for (const subject of SUBJECTS) {
    const { vsBare, vsBareRequests, vsTestCoverage } = await benchSubject(subject);
    lines.push({ measure: `engine / bare ws loop, calls checked per second, ${subject.label} (the same requests, setup calls included for both)`, value: `${(vsBare * 100).toFixed(0)}%`, goal: `≥ ${ENGINE_GOALS.vsBare * 100}%`, met: vsBare >= ENGINE_GOALS.vsBare });
    lines.push({ measure: `engine judged calls per second / bare loop requests per second (setup calls counted for the bare loop only, as in earlier rounds), ${subject.label}`, value: `${(vsBareRequests * 100).toFixed(0)}%`, goal: 'reported', met: undefined });
    lines.push(
      subject.likeForLike
        ? { measure: `engine / @open-rpc/test-coverage, calls per second, ${subject.label}`, value: times(vsTestCoverage), goal: `≥ ${ENGINE_GOALS.vsTestCoverage}×`, met: vsTestCoverage >= ENGINE_GOALS.vsTestCoverage }
        : { measure: `engine / @open-rpc/test-coverage, calls per second, ${subject.label} (not like for like: test-coverage's by-position calls are all rejected)`, value: times(vsTestCoverage), goal: 'reported', met: undefined },
    );
  }
  lines.push(...(await helpStart()));
  lines.push(...(await shortRun()));
  lines.push(...(await defaultRun('profiles/hermes/contracts/session-lifecycle.openrpc.json', 8)));
  lines.push(...(await stdioRun('profiles/hermes/contracts/session-lifecycle.openrpc.json')));
  if (process.env['BENCH_FULL']) lines.push(...(await defaultRun('profiles/hermes/contracts/gateway.openrpc.json', 15)));

  const mark = (met: boolean | undefined): string => (met === undefined ? '' : met ? 'met' : 'MISSED');
  const table = ['| measure | value | goal | |', '|---|---:|---|---|', ...lines.map((l) => `| ${l.measure} | ${l.value} | ${l.goal} | ${mark(l.met)} |`)];
  const shares = shareRows(await gatewayTimeShare(Number(process.env['BENCH_SECONDS'] ?? 2)));
  const engineShares: string[] = [];
  for (const subject of SUBJECTS) engineShares.push((await engineTimeShare(subject)).join('\n'));
  const text =
    `# Benchmark (${((performance.now() - started) / 1000).toFixed(0)} s, ${new Date().toISOString()})\n\n${table.join('\n')}\n\n` +
    `Where the reference gateway's time goes (50 connections, the workload above, one profiled cell; the load generator shares the process):\n\n${shares.join('\n')}\n\n` +
    `Where the engine's time goes against the bare loop's (the same calls, the gateway in the same thread; profiled rounds, so slower than the rounds above):\n\n${engineShares.join('\n\n')}\n`;
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, 'bench.md'), text);
  process.stdout.write(`\n${text}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
