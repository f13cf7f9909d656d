/**
 * The reference gateway's own work per request, without a socket: the workload of bench/gateway.ts
 * (session.create → prompt.submit → session.events.since) fed to the gateway core as text, its frames taken as text,
 * on 50 connections taking turns. What is measured is this process's CPU per request, so that load from other
 * processes on a shared machine hardly moves it. With BENCH_GATEWAY_BASELINE=<checkout>, the baseline build's core
 * runs in alternating rounds in the same process: the ratio is the before/after of the gateway's own work.
 *
 * Run: npx tsx bench/gatewayCore.ts [seconds per round]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as GatewayIndex from '../dist/gateway/index.js';

type GatewayModule = typeof GatewayIndex;
type Core = ReturnType<GatewayModule['createGatewayCore']>;

const REPO = fileURLToPath(new URL('..', import.meta.url));
const SECONDS = Number(process.argv[2] ?? process.env['BENCH_SECONDS'] ?? 2);
const CONNECTIONS = 50;
const ROUNDS = 5;
const SESSION_ID = /"session_id":"([^"]+)"/;

interface Lane {
  connection: ReturnType<Core['connect']> | undefined;
  last: string;
}

async function load(checkout: string): Promise<{ core: Core; dataDir: string }> {
  const module = (await import(pathToFileURL(join(resolve(checkout), 'dist', 'gateway', 'index.js')).href)) as GatewayModule;
  const dataDir = mkdtempSync(join(tmpdir(), 'contract-gate-core-bench-'));
  return { core: module.createGatewayCore({ buildDelayMs: 0, dataDir }), dataDir };
}

function lanes(core: Core): Lane[] {
  return Array.from({ length: CONNECTIONS }, () => {
    const lane: Lane = { connection: undefined, last: '' };
    lane.connection = core.connect({ kind: 'ws', send: (text) => (lane.last = text), close: () => undefined });
    return lane;
  });
}

let nextId = 0;
async function iteration(core: Core, lane: Lane): Promise<void> {
  const connection = lane.connection as NonNullable<Lane['connection']>;
  await core.receive(connection, `{"jsonrpc":"2.0","id":"b${nextId++}","method":"session.create","params":{}}`);
  // The last frame after session.create is its session.info event; both carry the runtime id first.
  const sessionId = SESSION_ID.exec(lane.last)?.[1] ?? '';
  await core.receive(connection, `{"jsonrpc":"2.0","id":"b${nextId++}","method":"prompt.submit","params":{"session_id":"${sessionId}","text":"benchmark turn"}}`);
  await core.receive(connection, `{"jsonrpc":"2.0","id":"b${nextId++}","method":"session.events.since","params":{"session_id":"${sessionId}","last_seen":0}}`);
}

/** CPU microseconds per request over `seconds`, the lanes taking turns. */
async function cpuPerRequest(core: Core, all: Lane[], seconds: number): Promise<number> {
  const until = performance.now() + seconds * 1000;
  const before = process.cpuUsage();
  let requests = 0;
  while (performance.now() < until) {
    for (const lane of all) await iteration(core, lane);
    // Work the gateway left to timers and immediates (a build, a turn's steps) runs, and is counted, here.
    await new Promise((resolve) => setImmediate(resolve));
    requests += 3 * all.length;
  }
  const cpu = process.cpuUsage(before);
  return (cpu.user + cpu.system) / requests;
}

export interface CoreBench {
  readonly currentUs: number;
  readonly baselineUs?: number;
}

export async function benchGatewayCore(seconds = SECONDS, baselineCheckout = process.env['BENCH_GATEWAY_BASELINE']): Promise<CoreBench> {
  const current = await load(REPO);
  const baseline = baselineCheckout ? await load(baselineCheckout) : undefined;
  const subjects = [{ core: current.core, lanes: lanes(current.core), best: Infinity }, ...(baseline ? [{ core: baseline.core, lanes: lanes(baseline.core), best: Infinity }] : [])];
  try {
    for (const subject of subjects) await cpuPerRequest(subject.core, subject.lanes, 1);
    for (let round = 0; round < ROUNDS; round++) {
      for (const subject of subjects) subject.best = Math.min(subject.best, await cpuPerRequest(subject.core, subject.lanes, seconds / ROUNDS));
    }
  } finally {
    for (const { core, dataDir } of [current, ...(baseline ? [baseline] : [])]) {
      core.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const [ours, theirs] = subjects;
  return { currentUs: ours?.best ?? NaN, ...(theirs ? { baselineUs: theirs.best } : {}) };
}

async function main(): Promise<void> {
  const { currentUs, baselineUs } = await benchGatewayCore();
  console.log(`gateway core without sockets, ${CONNECTIONS} connections taking turns, best of ${ROUNDS} rounds: ${currentUs.toFixed(1)} µs CPU per request`);
  if (baselineUs !== undefined) console.log(`baseline build: ${baselineUs.toFixed(1)} µs CPU per request; this build / baseline = ${(currentUs / baselineUs).toFixed(2)}×`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
