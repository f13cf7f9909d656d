import { expect, test } from './helpers/test.js';
import * as fc from 'fast-check';
import { join } from 'node:path';
import { type RunningGateway, startGateway } from '../../gateway/index.js';
import { RpcClient } from '../../src/client/rpcClient.js';
import { replayStateful, runStateful, runStatefulBoth } from '../../src/stateful/engine/runStateful.js';
import type { StatefulMode, StatefulModel, StatefulOptions, StatefulResult } from '../../src/stateful/engine/statefulTypes.js';
import type { ConnectClient } from '../../profiles/hermes/stateful/hermesSide.js';
import { runHermesStateful } from '../../profiles/hermes/stateful/hermesStateful.js';
import { HERMES_DIALECT } from '../../profiles/hermes/dialect.js';
import { HOOKS_EXTENSION } from './helpers/gatewayHarness.js';

const CONTRACT = join(process.cwd(), 'profiles', 'hermes', 'contracts', 'session-lifecycle.openrpc.json');

const connectTo = (gateway: RunningGateway): ConnectClient => (options) => RpcClient.connect({ dialect: HERMES_DIALECT, url: gateway.url, readyTimeoutMs: 2_000, requestTimeoutMs: 5_000, ...options });

async function withGateways<T>(faults: string[], body: (target: RunningGateway, reference: RunningGateway) => Promise<T>): Promise<T> {
  // With the session-hooks extension, so that session.reset is drawn too.
  const target = await startGateway({ contractPaths: [CONTRACT, HOOKS_EXTENSION], faults });
  const reference = await startGateway({ contractPaths: [CONTRACT, HOOKS_EXTENSION] });
  try {
    return await body(target, reference);
  } finally {
    await target.close();
    await reference.close();
  }
}

const setupOf = (target: RunningGateway, reference: RunningGateway) => ({ target: connectTo(target), reference: connectTo(reference), serverRequests: [], requestTimeoutMs: 5_000 });

test('twenty seeds against the clean reference gateway: the model holds and target and reference agree', async () => {
  test.setTimeout(240_000);
  await withGateways([], async (target, reference) => {
    const failures: string[] = [];
    for (let seed = 1; seed <= 20; seed++) {
      for (const [mode, runs] of [['model', 4], ['differential', 2]] as const) {
        const result = await runHermesStateful(setupOf(target, reference), mode, { seed: seed * 7919, runs, maxSteps: 30, referenceDirectives: true });
        if (!result.ok) failures.push(`seed ${seed * 7919} ${mode}: step ${result.failure?.index} ${result.failure?.message} in ${JSON.stringify(result.steps)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

// Each sequence fault is caught, shrunk to at most 6 calls and replayed by the self-test (test/selftest), which
// runs the stateful cells exactly as `contract-gate run --fault` does.

// The engine on a system without a network: a counter whose increments are lost once it reaches 3.
interface Counter {
  value: number;
}
const leakyCounter: StatefulModel<Counter, Counter> = {
  name: 'leaky-counter',
  initial: () => ({ value: 0 }),
  commands: [
    {
      name: 'inc',
      args: fc.constant({}),
      check: () => true,
      run: async (model, system) => {
        if (system.value < 3) system.value += 1;
        return { outcome: 'success', fields: { value: system.value }, violations: system.value === model.value + 1 ? [] : [`value ${system.value}, not ${model.value + 1}`], answer: String(system.value) };
      },
      update: (model) => {
        model.value += 1;
      },
    },
    {
      name: 'read',
      args: fc.constant({}),
      check: () => true,
      run: async (model, system) => ({ outcome: 'success', fields: { value: system.value }, violations: system.value === model.value ? [] : [`read ${system.value}, not ${model.value}`], answer: String(system.value) }),
      update: () => undefined,
    },
  ],
};
const counters = { target: { open: async () => ({ value: 0 }), close: async () => undefined } };
const options: StatefulOptions = { seed: 42, runs: 50, maxSteps: 20, referenceDirectives: false };

test('the engine shrinks a failure to the shortest sequence and a replay of it fails at the same step', async () => {
  const result = await runStateful(leakyCounter, counters, 'model', options);
  expect(result.ok).toBe(false);
  expect(result.steps.map((step) => step.command)).toEqual(['inc', 'inc', 'inc', 'inc']);
  expect(result.failure?.message).toBe('value 3, not 4');
  const again = await replayStateful(leakyCounter, counters, 'model', result.steps);
  expect(again.failure?.index).toBe(4);
});

test('the engine passes a model that holds, and the differential mode names the first divergent step with both answers', async () => {
  const exact: StatefulModel<Counter, Counter> = { ...leakyCounter, commands: leakyCounter.commands.filter((command) => command.name === 'read') };
  expect((await runStateful(exact, counters, 'model', options)).ok).toBe(true);
  const sound = { open: async () => ({ value: -100 }), close: async () => undefined };
  const result = await runStateful(leakyCounter, { target: counters.target, reference: sound }, 'differential', options);
  expect(result.ok).toBe(false);
  expect(result.steps).toHaveLength(1);
  expect(result.failure?.message).toContain('tracked field value differs: target {"value":1}, reference {"value":-99}');
});

// Counters as systems: a capped one loses the increments past its cap.
const counterAt = (start: number, cap = Infinity) => ({ open: async () => ({ value: start, cap }), close: async () => undefined });
const cappedCounter: StatefulModel<Counter, Counter & { cap: number }> = {
  ...leakyCounter,
  commands: leakyCounter.commands.map((command) =>
    command.name !== 'inc'
      ? command
      : {
          ...command,
          run: async (model, system) => {
            if (system.value < system.cap) system.value += 1;
            return { outcome: 'success', fields: { value: system.value }, violations: system.value === model.value + 1 ? [] : [`value ${system.value}, not ${model.value + 1}`], answer: String(system.value) };
          },
        },
  ),
};

/** What a result reports, without its timings (the shared search runs more commands than either search alone). */
const reported = (result: StatefulResult) => ({ ok: result.ok, steps: result.steps, failure: result.failure && { index: result.failure.index, message: result.failure.message }, originalLength: result.originalLength });

test("one search for both modes reports what each mode's own search reports, whichever modes fail", async () => {
  const pairs = {
    'both fail (leaky target, exact reference)': { target: counterAt(0, 3), reference: counterAt(0) },
    'only the lockstep fails (exact target, offset reference)': { target: counterAt(0), reference: counterAt(-100) },
    'only the model fails (leaky target and reference)': { target: counterAt(0, 3), reference: counterAt(0, 3) },
    'the lockstep fails first, the model later (target capped at 3, reference at 2)': { target: counterAt(0, 3), reference: counterAt(0, 2) },
    'neither fails': { target: counterAt(0), reference: counterAt(0) },
  };
  const mismatches: string[] = [];
  for (const [name, systems] of Object.entries(pairs)) {
    for (const seed of [1, 42, 7919]) {
      const both = await runStatefulBoth(cappedCounter, systems, { ...options, seed });
      for (const mode of ['model', 'differential'] as StatefulMode[]) {
        const alone = await runStateful(cappedCounter, systems, mode, { ...options, seed });
        if (JSON.stringify(reported(both[mode])) !== JSON.stringify(reported(alone))) mismatches.push(`${name}, seed ${seed}, ${mode}: ${JSON.stringify(reported(both[mode]))} vs ${JSON.stringify(reported(alone))}`);
      }
    }
  }
  expect(mismatches).toEqual([]);
  const leaky = await runStatefulBoth(cappedCounter, pairs['both fail (leaky target, exact reference)'], options);
  expect([leaky.model.failure?.message, leaky.differential.failure?.message]).toEqual(['value 3, not 4', 'tracked field value differs: target {"value":3}, reference {"value":4}']);
  const lockstepOnly = await runStatefulBoth(cappedCounter, pairs['only the lockstep fails (exact target, offset reference)'], options);
  expect([lockstepOnly.model.ok, lockstepOnly.differential.steps.length]).toEqual([true, 1]);
});
