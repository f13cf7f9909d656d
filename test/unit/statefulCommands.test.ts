import { expect, test } from './helpers/test.js';
import { join } from 'node:path';
import { type RunningGateway, startGateway } from '../../gateway/index.js';
import { RpcClient } from '../../src/client/rpcClient.js';
import type { JsonObject } from '../../core/index.js';
import { HERMES_DIALECT } from '../../profiles/hermes/dialect.js';
import { replayHermesStateful } from '../../profiles/hermes/stateful/hermesStateful.js';
import { HOOKS_EXTENSION } from './helpers/gatewayHarness.js';

/*
 * Every command of the session model that a sequence fault targets, on a fixed sequence: it fails on the faulty
 * reference gateway at the step and rule named, and the same sequence holds on the clean one. (The self-test finds
 * the same faults with random sequences and shrinks them; these sequences are the shortest that show each one.)
 */

const CONTRACT = join(process.cwd(), 'profiles', 'hermes', 'contracts', 'session-lifecycle.openrpc.json');

type Steps = Array<[string, JsonObject]>;

const CASES: Array<{ fault: string; steps: Steps; step: number; rule: string }> = [
  { fault: 'sequence.undo-forgotten', steps: [['create', {}], ['submit', { s: 0, text: 'a' }], ['undo', { s: 0 }]], step: 3, rule: 'undo.last-turn' },
  { fault: 'sequence.redirect-idle-runs', steps: [['create', {}], ['redirectIdle', { s: 0, text: 'a' }]], step: 2, rule: 'redirect.idle' },
  { fault: 'sequence.reset-ignored', steps: [['create', {}], ['submit', { s: 0, text: 'a' }], ['reset', { s: 0 }]], step: 3, rule: 'reset.empties' },
  { fault: 'sequence.interrupt-ignored', steps: [['create', {}], ['interruptIdle', { s: 0 }]], step: 2, rule: 'interrupt.stops' },
  { fault: 'sequence.interrupt-ignored', steps: [['create', {}], ['interruptBusy', { s: 0, text: 'a' }]], step: 2, rule: 'interrupt.stops' },
  { fault: 'sequence.active-list-drops-empty', steps: [['create', {}], ['activeList', {}]], step: 2, rule: 'active.live' },
  { fault: 'sequence.most-recent-skips-untitled', steps: [['create', {}], ['submit', { s: 0, text: 'a' }], ['mostRecent', {}]], step: 3, rule: 'recent.listable' },
  { fault: 'sequence.closed-session-readable', steps: [['create', {}], ['create', {}], ['close', { s: 0 }], ['status', { s: 0 }]], step: 4, rule: 'closed.gone' },
  { fault: 'sequence.closed-session-readable', steps: [['create', {}], ['create', {}], ['close', { s: 0 }], ['contextBreakdown', { s: 0 }]], step: 4, rule: 'closed.gone' },
  { fault: 'sequence.closed-session-readable', steps: [['create', {}], ['create', {}], ['close', { s: 0 }], ['resize', { s: 0, cols: 100 }]], step: 4, rule: 'closed.gone' },
  { fault: 'sequence.branch-count-short', steps: [['create', {}], ['submitPair', { s: 0, first: 'a', second: 'b', fromB: false }], ['branchWhole', { s: 0 }]], step: 3, rule: 'branch.copy' },
  { fault: 'sequence.branch-count-short', steps: [['create', {}], ['submitPair', { s: 0, first: 'a', second: 'b', fromB: false }], ['branchStored', { r: 0 }]], step: 3, rule: 'branch.copy' },
];

async function replayOn(faults: string[], steps: Steps) {
  const gateway: RunningGateway = await startGateway({ contractPaths: [CONTRACT, HOOKS_EXTENSION], faults });
  try {
    const target = (options: { name: string }) => RpcClient.connect({ dialect: HERMES_DIALECT, url: gateway.url, readyTimeoutMs: 5_000, requestTimeoutMs: 30_000, ...options });
    return await replayHermesStateful({ target, serverRequests: [], requestTimeoutMs: 30_000 }, 'model', steps.map(([command, args]) => ({ command, args })));
  } finally {
    await gateway.close();
  }
}

test.describe.configure({ mode: 'parallel' });

for (const { fault, steps, step, rule } of CASES) {
  const last = steps[steps.length - 1]?.[0];
  test(`${last} fails at step ${step} [${rule}] on ${fault} and holds on the clean gateway`, async () => {
    const faulty = await replayOn([fault], steps);
    expect(faulty.failure?.index, faulty.failure?.message).toBe(step);
    expect(faulty.failure?.message).toContain(`[${rule}]`);
    const clean = await replayOn([], steps);
    expect(clean.failure?.message).toBeUndefined();
    expect(clean.executed).toHaveLength(steps.length);
  });
}

test('a longer sequence through every command holds on the clean gateway, undo and reset included', async () => {
  const steps: Steps = [
    ['create', { title: 'one' }], ['submitPair', { s: 0, first: 'a', second: 'b', fromB: false }], ['undo', { s: 0 }], ['history', { s: 0 }], ['list', {}],
    ['branchWhole', { s: 0 }], ['branchStored', { r: 0 }], ['reset', { s: 0 }], ['list', {}], ['activeList', {}], ['mostRecent', {}], ['status', { s: 1 }],
    ['contextBreakdown', { s: 2 }], ['resize', { s: 1, cols: 132 }], ['interruptIdle', { s: 0 }], ['interruptBusy', { s: 1, text: 'c' }], ['redirectIdle', { s: 2, text: 'd' }],
    ['close', { s: 0 }], ['resume', { r: 0 }], ['usage', { s: 3 }], ['status', { s: 0 }], ['resize', { s: 0, cols: 90 }], ['activeList', {}],
  ];
  const clean = await replayOn([], steps);
  expect(clean.failure?.message).toBeUndefined();
  expect(clean.executed.map((executed) => executed.command)).toEqual(steps.map(([command]) => command));
});

test('branching a deleted stored row opens no session: the model goes on without one (a run with seed 2096622014 found it)', async () => {
  // The model once opened a child anyway, so that the next command on "s0" went to a session the gateway never had.
  const steps: Steps = [['create', {}], ['submit', { s: 0, text: 'a' }], ['close', { s: 0 }], ['delete', { r: 0 }], ['branchStored', { r: 0 }], ['create', {}], ['status', { s: 0 }], ['submit', { s: 0, text: 'b' }], ['undo', { s: 0 }]];
  const clean = await replayOn([], steps);
  expect(clean.failure?.message).toBeUndefined();
  expect(clean.executed.map((executed) => executed.command)).toEqual(steps.map(([command]) => command));
});
