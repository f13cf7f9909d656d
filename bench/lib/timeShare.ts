import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';

/** The parts of a V8 CPU profile that attribution needs. */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

/** One bucket of the gateway's time: which files' code it covers. */
export interface TimeBucket {
  readonly name: string;
  /** Paths relative to the repository (a trailing `/` covers a folder). */
  readonly files: readonly string[];
}

/**
 * Where a gateway request's CPU goes. A sample belongs to the innermost frame of the gateway or of the load
 * generator on its stack, so ajv's generated validators count as validation, JSON.stringify (inlined into its
 * caller) as the serialization of whoever called it, and `ws` framing under the gateway's socket send as the wire.
 */
export const GATEWAY_BUCKETS: readonly TimeBucket[] = [
  { name: 'validation (params admission, result and event checks, ajv)', files: ['gateway/core/paramsAdmission.ts', 'gateway/core/inboundGate.ts', 'gateway/core/contractChecker.ts', 'gateway/core/contract/schemaValidators.ts', 'gateway/core/contract/firstExtraKey.ts'] },
  { name: 'outbound shaping (fitting values to the declared models)', files: ['gateway/core/outboundShapes.ts', 'gateway/core/contract/outboundShape.ts', 'gateway/core/contract/schemaBranches.ts'] },
  { name: 'replay ring (seq stamping, retained copies, eviction, replays)', files: ['gateway/core/replayRings.ts', 'gateway/core/handlers/replay.ts'] },
  { name: 'event fan-out and serialization (routing, interceptors, JSON.stringify)', files: ['gateway/core/sessionEvents.ts', 'gateway/core/outboundFunnel.ts'] },
  { name: 'dispatch and request parsing', files: ['gateway/core/dispatcher.ts', 'gateway/core/gatewayCore.ts', 'gateway/core/gatewayConnection.ts'] },
  { name: 'wire (ws framing and socket writes of the gateway)', files: ['gateway/transport/'] },
  { name: 'session logic (handlers, agent, store, timers)', files: ['gateway/'] },
  { name: 'load generator (the benchmark client)', files: ['bench/'] },
];

/**
 * Where the CPU of a judged call goes in the engine bench (bench/fuzz.ts), where the reference gateway, the engine
 * and the bare loop share one thread. Attributed as for the gateway: fast-check counts as generation (its async
 * runner drives the valid phase from the microtask queue, with none of our frames above it), json-schema-faker for
 * whoever called it (the gateway's schema answers), ajv's generated validators for the checks, and `JSON.parse`
 * (inlined) for whoever parsed. Checks come before the method run: their verdicts live in src/conformance/.
 */
export const ENGINE_BUCKETS: readonly TimeBucket[] = [
  { name: 'the reference gateway (the target, in the same thread)', files: ['gateway/'] },
  { name: 'value generation (schemas walked, fast-check draws, mutations)', files: ['fuzz/', 'node_modules/fast-check/'] },
  { name: 'checks and verdicts (judges, result schemas, ajv)', files: ['src/checks/', 'src/contracts/', 'src/conformance/methodVerdicts.ts'] },
  { name: 'identifier binding (live ids, setup calls)', files: ['src/binding/'] },
  { name: 'the method run (phases, cases, shrinking)', files: ['src/conformance/'] },
  { name: 'client (requests, answers, events, transcript, redaction, socket writes)', files: ['src/client/', 'core/', 'profiles/'] },
  { name: "bench driver (the bare loop's client and socket writes; the engine's wire script)", files: ['bench/'] },
];

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A profiled file as its source path: the benchmarks run the compiled `dist/…/x.js` of `…/x.ts`. A dependency's
 * file keeps its `node_modules/…` path, which a bucket may name; one that none names counts for its caller.
 */
function relativePath(url: string): string | undefined {
  if (!url.startsWith('file://')) return undefined;
  const path = fileURLToPath(url);
  if (!path.startsWith(REPO)) return undefined;
  const relative = path.slice(REPO.length);
  return relative.startsWith('node_modules/') ? relative : relative.replace(/^dist\//, '').replace(/\.js$/, '.ts');
}

function bucketOf(path: string, buckets: readonly TimeBucket[]): string | undefined {
  return buckets.find((bucket) => bucket.files.some((file) => (file.endsWith('/') ? path.startsWith(file) : path === file)))?.name;
}

/** Milliseconds per bucket, plus `garbage collection` and `other (node, ws receive, idle excluded)`. */
export function attribute(profile: CpuProfile, buckets: readonly TimeBucket[]): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const owner = new Map<number, string>();
  const ownerOf = (id: number): string => {
    const known = owner.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id);
    const name = node?.callFrame.functionName ?? '';
    let result: string;
    if (name === '(garbage collector)') result = 'garbage collection';
    else if (name === '(idle)' || name === '(program)') result = '(idle)';
    else {
      const path = relativePath(node?.callFrame.url ?? '');
      const here = path === undefined ? undefined : bucketOf(path, buckets);
      const up = parent.get(id);
      result = here ?? (up === undefined ? 'other (node internals, ws receive)' : ownerOf(up));
    }
    owner.set(id, result);
    return result;
  };
  const totals = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const bucket = ownerOf(samples[i] as number);
    if (bucket === '(idle)') continue;
    totals.set(bucket, (totals.get(bucket) ?? 0) + (deltas[i + 1] ?? 0) / 1000);
  }
  return totals;
}

/** Runs `work` under this thread's CPU profiler (sampling every `intervalUs`) and returns the profile. */
export async function profiled(work: () => Promise<void>, intervalUs = 250): Promise<CpuProfile> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
    await session.post('Profiler.start');
    let stopped: { profile: CpuProfile } | undefined;
    try {
      await work();
    } finally {
      stopped = (await session.post('Profiler.stop')) as { profile: CpuProfile };
    }
    return stopped.profile;
  } finally {
    session.disconnect();
  }
}

/** Shares of busy CPU per bucket, largest first, as Markdown rows. */
export function shareRows(totals: ReadonlyMap<string, number>): string[] {
  const busy = busyMs(totals);
  return ['| where a gateway request\'s CPU goes | share of busy CPU |', '|---|---:|', ...[...totals.entries()].sort((a, b) => b[1] - a[1]).map(([name, ms]) => `| ${name} | ${((100 * ms) / busy).toFixed(1)}% |`)];
}

/**
 * Microseconds of busy CPU per judged call, bucket by bucket, for two profiles of the same calls side by side (the
 * engine's round and the bare loop's replay of it), largest first by the first; a total row closes the table.
 */
export function perCallRows(heading: readonly [string, string, string], first: ReadonlyMap<string, number>, second: ReadonlyMap<string, number>, calls: number): string[] {
  const us = (ms: number | undefined): string => (((ms ?? 0) * 1000) / calls).toFixed(1);
  const names = [...new Set([...first.keys(), ...second.keys()])].sort((a, b) => (first.get(b) ?? 0) - (first.get(a) ?? 0));
  return [`| ${heading.join(' | ')} |`, '|---|---:|---:|', ...names.map((name) => `| ${name} | ${us(first.get(name))} | ${us(second.get(name))} |`), `| all busy CPU | ${us(busyMs(first))} | ${us(busyMs(second))} |`];
}

/** Milliseconds of busy CPU in all buckets together. */
function busyMs(totals: ReadonlyMap<string, number>): number {
  return [...totals.values()].reduce((sum, ms) => sum + ms, 0);
}
