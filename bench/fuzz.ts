/**
 * Calls checked per second: the contract-gate method engine against @open-rpc/test-coverage and a bare `ws`
 * request/response loop, all measured in this run against the embedded reference gateway.
 *
 * How the comparison is kept fair:
 * - same gateway: every runner gets a fresh reference gateway started in this process with the same options
 *   (same documents, seed 0, no build delay), so none inherits sessions another created;
 * - same methods: every method of the document;
 * - same calls: our engine runs first and judges N exchanges per method (valid, unknown-key and invalid
 *   phases); the bare loop replays every request our engine sent (the binding setup calls included: without them
 *   the judged calls would meet no live session), the same bytes but for the ids its own gateway issued, and waits
 *   for the events our engine waited for (bench/lib/bareLoop.ts says why); its row says whether every answer had
 *   the outcome our engine's had. Both rates count the same judged calls, so the ratio is the bare loop's time over
 *   ours. (Earlier rounds counted the setup calls for the bare loop only, our judged calls against its requests:
 *   that figure is still printed, as "judged/s over the bare loop's requests/s".)
 *   test-coverage's json-schema-faker rule makes min(N, 3) calls per method (BENCH_TEST_COVERAGE_CALLS): its
 *   cost is per call, so a few calls per method give its rate without a minute of waiting;
 * - sequential for all three, since test-coverage is: one call in flight at a time. Our engine opens one
 *   connection per method run (as the methods suite does), and so does the bare loop, at the same places;
 * - test-coverage gets a silent reporter (its built-in ones print a line per call) and its own HTTP transport,
 *   which is the only one it has;
 * - our engine and the bare loop first do one whole unmeasured pass (test-coverage one on three methods), so that
 *   no one pays for the JIT alone: a real run's workers run many methods, and most of them on compiled code;
 *   our engine and the bare loop then alternate for ROUNDS rounds and each keeps its fastest round (the machine
 *   may be shared); test-coverage runs once, its time being HTTP connections and an Ajv built per call, not JIT.
 *
 * Separately, our engine's throughput with methods on several connections at once (runMethod is safe to run
 * concurrently, one connection per method). Here the lanes share one thread with the gateway, so they cannot
 * add CPU; the runner gets its parallelism from Playwright worker processes. That row is not in the ratios.
 *
 * Then where a judged call's CPU goes (`engineTimeShare`): profiled engine rounds and bare replays of them, split into
 * the same parts (the gateway, generation, checks, the client, …), microseconds per judged call side by side.
 *
 * Two documents: the Hermes session lifecycle (our target layout: one `params` object per method, with
 * identifier binding), where test-coverage sends by-position arrays that the gateway rejects, so its calls
 * there measure throughput only; and the MetaMask document, plain by-position JSON-RPC that test-coverage
 * understands, answered by the gateway's schema-driven responder.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { startGateway, type RunningGateway } from '../dist/gateway/index.js';
import { loadBindingRules, NO_BINDINGS, type BindingRules } from '../dist/src/binding/index.js';
import { resolveProfile } from '../dist/profiles/index.js';
import { loadContractSync } from '../dist/src/contracts/loadContract.js';
import { runBareLoop, type BareLoopResult } from './lib/bareLoop.js';
import { replayOf } from './lib/exchangeScript.js';
import { runEngine, type EngineRunOptions, type EngineRunResult } from './lib/engineRun.js';
import { runTestCoverage } from './lib/testCoverageRun.js';
import { attribute, ENGINE_BUCKETS, perCallRows, profiled } from './lib/timeShare.js';

const SEED = 1;
const RUNS = Number(process.env['BENCH_RUNS'] ?? 25);
const LANES = 4;
const ROUNDS = 5;
const TEST_COVERAGE_CALLS_PER_METHOD = Number(process.env['BENCH_TEST_COVERAGE_CALLS'] ?? 3);
/** Goals of issue 29: the engine at 85% of the bare loop on every document, 40× test-coverage where like for like. */
export const ENGINE_GOALS = { vsBare: 0.85, vsTestCoverage: 40 } as const;

export interface Subject {
  label: string;
  path: string;
  rules: BindingRules;
  /** test-coverage makes the calls the document means (false: its by-position arrays are all rejected, a rate only). */
  likeForLike: boolean;
}

export const SUBJECTS: Subject[] = [
  { label: 'Hermes session lifecycle', path: 'profiles/hermes/contracts/session-lifecycle.openrpc.json', rules: loadBindingRules('profiles/hermes/contracts/bindings.json'), likeForLike: false },
  { label: 'MetaMask JSON-RPC', path: 'node_modules/@metamask/api-specs/dist/build/openrpc.json', rules: NO_BINDINGS, likeForLike: true },
];

export interface Row {
  runner: string;
  calls: number;
  what: string;
  elapsedMs: number;
  note: string;
}

const rate = (row: Row): number => (row.calls / row.elapsedMs) * 1000;

async function withGateway<T>(path: string, body: (gateway: RunningGateway) => Promise<T>): Promise<T> {
  const gateway = await startGateway({ contractPaths: [path], buildDelayMs: 0, seed: 0 });
  try {
    return await body(gateway);
  } finally {
    await gateway.close();
  }
}

/** The subject's methods, and a runner of our engine over all of them as the bench runs it (RUNS, SEED). */
function engineOf(subject: Subject): { methods: string[]; engine: (url: string, overrides?: Partial<EngineRunOptions>) => Promise<EngineRunResult> } {
  const contract = loadContractSync(subject.path);
  const methods = contract.methods.map((m) => m.name);
  const profile = resolveProfile(undefined, contract).codes;
  return { methods, engine: (url, overrides = {}) => runEngine({ url, contract, profile, rules: subject.rules, methods, runs: RUNS, seed: SEED, ...overrides }) };
}

export async function benchSubject(subject: Subject): Promise<{ rows: Row[]; vsTestCoverage: number; vsBare: number; vsBareRequests: number }> {
  const { methods, engine } = engineOf(subject);
  const document = JSON.parse(readFileSync(subject.path, 'utf8')) as object;
  const warmup = methods.slice(0, 3);

  // One whole unmeasured pass each: every method's code paths (and the bare loop's) are compiled before the clock runs.
  const warmed = await withGateway(subject.path, (g) => engine(g.url, { keepScript: true }));
  await withGateway(subject.path, (g) => runBareLoop(g.url, replayOf(warmed.script)));
  const warmupCalls = new Map(warmup.map((name) => [name, 3]));
  await withGateway(subject.path, (g) => runTestCoverage(document, g.httpUrl, warmupCalls));

  let ours: EngineRunResult | undefined;
  let bare: BareLoopResult | undefined;
  for (let round = 0; round < ROUNDS; round++) {
    const run = await withGateway(subject.path, (g) => engine(g.url, { keepScript: true }));
    if (!ours || run.elapsedMs < ours.elapsedMs) ours = run;
    const replay = replayOf(run.script);
    const loop = await withGateway(subject.path, (g) => runBareLoop(g.url, replay));
    if (!bare || loop.elapsedMs < bare.elapsedMs) bare = loop;
  }
  if (!ours || !bare) throw new Error('no round ran');
  // test-coverage's cost is per call (an HTTP connection and an Ajv compile each): a few calls per method give its rate.
  const perMethod = new Map([...ours.perMethod].map(([name, calls]) => [name, Math.min(calls, TEST_COVERAGE_CALLS_PER_METHOD)]));
  const peer = await withGateway(subject.path, (g) => runTestCoverage(document, g.httpUrl, perMethod));
  const lanes = await withGateway(subject.path, (g) => engine(g.url, { lanes: LANES }));

  const rows: Row[] = [
    { runner: `contract-gate engine, sequential (best of ${ROUNDS})`, calls: ours.judged, what: 'judged', elapsedMs: ours.elapsedMs, note: `${ours.sent} requests sent (setup and shrinking included), ${ours.failingCells} failing cells` },
    {
      runner: '@open-rpc/test-coverage, HTTP',
      calls: peer.calls,
      what: 'checked',
      elapsedMs: peer.elapsedMs,
      note: `${peer.valid} valid, ${peer.errors} JSON-RPC errors${peer.errors === peer.calls ? ' (by-position arrays: every call rejected)' : ''}`,
    },
    {
      // The same work as ours: every request our engine sent is replayed, so the rate is of the same judged calls.
      runner: `bare ws request/response loop (best of ${ROUNDS})`,
      calls: ours.judged,
      what: 'judged calls answered',
      elapsedMs: bare.elapsedMs,
      note: `all ${bare.calls} requests our engine sent (its ${ours.judged} judged calls and the ${bare.calls - ours.judged} binding setup calls they need), replayed on ${bare.connections} connections (ours: ${ours.connections}); no checks; ${bare.mismatches === 0 ? 'every outcome as ours' : `${bare.mismatches} outcomes differ from ours`}`,
    },
    { runner: `contract-gate engine, ${LANES} connections`, calls: lanes.judged, what: 'judged', elapsedMs: lanes.elapsedMs, note: `${LANES} method runs at once, one thread shared with the gateway` },
  ];
  const [oursRow, peerRow, bareRow] = rows as [Row, Row, Row, Row];
  // Earlier rounds divided our judged calls per second by the bare loop's requests per second, setup calls included
  // for the bare loop only: kept as a reported figure, for comparison with those rounds.
  const vsBareRequests = rate(oursRow) / ((bare.calls / bare.elapsedMs) * 1000);
  return { rows, vsTestCoverage: rate(oursRow) / rate(peerRow), vsBare: rate(oursRow) / rate(bareRow), vsBareRequests };
}

/** Rounds profiled for the time share: one round of a few hundred milliseconds is too few samples to split. */
const SHARE_ROUNDS = 3;

/**
 * Where a judged call's CPU goes: SHARE_ROUNDS engine rounds and as many bare replays of them (after an unprofiled
 * one of each), each kind under one profile, attributed to the same buckets, as microseconds per judged call side by
 * side. What the engine spends beyond the bare loop is the difference, part by part.
 */
export async function engineTimeShare(subject: Subject): Promise<string[]> {
  const { engine: run } = engineOf(subject);
  const engine = (url: string) => run(url, { keepScript: true });
  const warmed = await withGateway(subject.path, (g) => engine(g.url));
  await withGateway(subject.path, (g) => runBareLoop(g.url, replayOf(warmed.script)));
  const rounds: EngineRunResult[] = [];
  const ours = attribute(
    await profiled(async () => {
      for (let round = 0; round < SHARE_ROUNDS; round++) rounds.push(await withGateway(subject.path, (g) => engine(g.url)));
    }),
    ENGINE_BUCKETS,
  );
  const replays = rounds.map((round) => replayOf(round.script));
  const bare = attribute(
    await profiled(async () => {
      for (const replay of replays) await withGateway(subject.path, (g) => runBareLoop(g.url, replay));
    }),
    ENGINE_BUCKETS,
  );
  const judged = rounds.reduce((sum, round) => sum + round.judged, 0);
  return perCallRows([`where a judged call's CPU goes, ${subject.label} (${SHARE_ROUNDS} rounds of ${rounds[0]?.judged ?? 0} judged calls)`, 'engine µs', 'bare loop µs'], ours, bare, judged);
}

function printTable(subject: Subject, methods: number, rows: Row[]): void {
  const header = ['runner', 'calls', 'wall s', 'calls/s', 'note'];
  const cells = rows.map((r) => [r.runner, `${r.calls} ${r.what}`, (r.elapsedMs / 1000).toFixed(2), rate(r).toFixed(0), r.note]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (values: string[]): string => `| ${values.map((v, i) => (i === 1 || i === 2 || i === 3 ? v.padStart(widths[i] ?? 0) : v.padEnd(widths[i] ?? 0))).join(' | ')} |`;
  process.stdout.write(`\n${subject.label}: ${methods} methods, runs ${RUNS}, seed ${SEED}\n`);
  process.stdout.write(`${line(header)}\n${line(widths.map((w) => '-'.repeat(w)))}\n`);
  for (const row of cells) process.stdout.write(`${line(row)}\n`);
}

const verdict = (value: number, target: number): string => (value >= target ? 'met' : 'MISSED');
const coverageVerdict = (subject: Subject, value: number): string =>
  subject.likeForLike ? `goal >= ${ENGINE_GOALS.vsTestCoverage}x, ${verdict(value, ENGINE_GOALS.vsTestCoverage)}` : 'not like for like: a rate only';

async function main(): Promise<void> {
  for (const subject of SUBJECTS) {
    const { rows, vsTestCoverage, vsBare, vsBareRequests } = await benchSubject(subject);
    printTable(subject, loadContractSync(subject.path).methods.length, rows);
    process.stdout.write(
      `ours / test-coverage: ${vsTestCoverage.toFixed(1)}x (${coverageVerdict(subject, vsTestCoverage)}); ` +
        `ours / bare loop: ${(vsBare * 100).toFixed(0)}% (goal >= ${ENGINE_GOALS.vsBare * 100}%, ${verdict(vsBare, ENGINE_GOALS.vsBare)}); ` +
        `judged/s over the bare loop's requests/s: ${(vsBareRequests * 100).toFixed(0)}%\n`,
    );
    process.stdout.write(`\n${(await engineTimeShare(subject)).join('\n')}\n`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
