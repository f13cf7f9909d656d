/**
 * Stateful runs against the embedded reference gateway: commands per second of the Hermes session model (model
 * and lockstep differential modes), and the share of each run spent in the harness (fast-check generation and
 * shrinking, the model, opening connections) versus on the wire (requests and the events they wait for). Every
 * number is next to one measured in the same run: the same engine on an in-process system with no wire at all.
 * Run: npx tsx bench/stateful.ts [runs] [steps]
 */
import * as fc from 'fast-check';
import { join } from 'node:path';
import { startGateway } from '../dist/gateway/index.js';
import { RpcClient } from '../dist/src/client/rpcClient.js';
import { runStateful } from '../dist/src/stateful/engine/runStateful.js';
import type { StatefulModel, StatefulResult } from '../dist/src/stateful/engine/statefulTypes.js';
import { HERMES_DIALECT } from '../dist/profiles/hermes/dialect.js';
import type { ConnectClient } from '../dist/profiles/hermes/stateful/hermesSide.js';
import { runHermesStateful } from '../dist/profiles/hermes/stateful/hermesStateful.js';

const RUNS = Number(process.argv[2] ?? 25);
const STEPS = Number(process.argv[3] ?? 40);
const CONTRACT = join(process.cwd(), 'profiles', 'hermes', 'contracts', 'session-lifecycle.openrpc.json');

/** Steps per second: a differential step runs the command on both gateways, so it counts once. */
const rate = (result: StatefulResult): number => ((result.timings.commands / (result.mode === 'differential' ? 2 : 1)) * 1000) / result.timings.totalMs;

/** One bare client sending session.list back to back for as long as the model run took: requests per second. */
async function bareRequests(url: string, ms: number): Promise<number> {
  const client = await RpcClient.connect({ url, readyTimeoutMs: 2_000 });
  const started = performance.now();
  let count = 0;
  while (performance.now() - started < ms) {
    await client.call('session.list', {});
    count += 1;
  }
  await client.close();
  return (count * 1000) / (performance.now() - started);
}
const wireShare = (result: StatefulResult): number => result.timings.wireMs / result.timings.totalMs;
const percent = (share: number): string => `${(share * 100).toFixed(0)}%`;

/** The same engine on a system with no wire: an in-process counter, so that only the harness costs time. */
const inProcess: StatefulModel<{ n: number }, { n: number }> = {
  name: 'in-process',
  initial: () => ({ n: 0 }),
  commands: ['inc', 'read'].map((name) => ({
    name,
    args: fc.record({ s: fc.nat({ max: 63 }) }),
    check: () => true,
    run: async (model, system) => {
      if (name === 'inc') system.n += 1;
      return { outcome: 'success', fields: { n: system.n }, violations: system.n === model.n + (name === 'inc' ? 1 : 0) ? [] : ['drift'], answer: '' };
    },
    update: (model) => {
      if (name === 'inc') model.n += 1;
    },
  })),
};

const target = await startGateway({ contractPaths: [CONTRACT] });
const reference = await startGateway({ contractPaths: [CONTRACT] });
const connect = (url: string): ConnectClient => (options) => RpcClient.connect({ url, dialect: HERMES_DIALECT, readyTimeoutMs: 2_000, requestTimeoutMs: 5_000, ...options });
const setup = { target: connect(target.url), reference: connect(reference.url), serverRequests: [], requestTimeoutMs: 5_000 };
const options = { seed: 1, runs: RUNS, maxSteps: STEPS, referenceDirectives: true };
try {
  const model = await runHermesStateful(setup, 'model', options);
  const differential = await runHermesStateful(setup, 'differential', options);
  const requests = await bareRequests(target.url, Math.min(5_000, model.timings.totalMs));
  const bare = await runStateful(inProcess, { target: { open: async () => ({ n: 0 }), close: async () => undefined } }, 'model', options);
  const rows = [
    ['model mode', model],
    ['differential mode (target + reference)', differential],
    ['same engine, in-process system', bare],
  ] as const;
  process.stdout.write(`stateful runs: seed 1, ${RUNS} sequences of at most ${STEPS} calls, session-lifecycle contract\n\n`);
  process.stdout.write('| run | steps | steps/s ÷ bare session.list requests/s | inside commands (wire: requests, waits for events) | harness (generation, shrinking, model, connections) |\n|---|---|---|---|---|\n');
  for (const [label, result] of rows) {
    const steps = result.timings.commands / (result.mode === 'differential' ? 2 : 1);
    process.stdout.write(`| ${label} | ${steps} | ${(rate(result) / requests).toFixed(3)} | ${percent(wireShare(result))} | ${percent(1 - wireShare(result))} |\n`);
  }
  process.stdout.write(`\ndifferential ÷ model steps per second: ${(rate(differential) / rate(model)).toFixed(2)} (a differential step runs on both gateways at once)\n`);
  process.stdout.write(`in-process engine ÷ model steps per second: ${(rate(bare) / rate(model)).toFixed(0)} (the harness alone is not the bottleneck)\n`);
  process.stdout.write(`(for the record, this machine now: model ${rate(model).toFixed(0)} steps/s, differential ${rate(differential).toFixed(0)} steps/s, bare ${requests.toFixed(0)} requests/s)\n`);
} finally {
  await target.close();
  await reference.close();
}
