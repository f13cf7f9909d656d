import { expect, test } from './helpers/test.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Exchange } from '../../core/index.js';
import { calibrateOnce, readCalibration, type Calibration } from '../../fixtures/budgetCalibration.js';
import { loadContractSync } from '../../src/contracts/loadContract.js';
import { SILENT_REQUESTS_LIMIT } from '../../src/conformance/silenceBreaker.js';
import type { RunPlan } from '../../src/run/runPlan.js';
import { REPO } from './helpers/cliRunner.js';
import { scratchDir } from './helpers/scratchDir.js';

// The budget's calibration: two requests per method of the run, timed (the quicker kept), before anything is fuzzed.
// Its requests go as many at a time as the method runs will; a request left unanswered holds every other one until
// the target drained.

const contract = loadContractSync(join(REPO, 'profiles', 'hermes', 'contracts', 'session-lifecycle.openrpc.json'));
const refs = contract.methods.map((method) => ({ contractIndex: 0, method: method.name }));

function planIn(workDir: string): RunPlan {
  return { workDir, contracts: [contract], config: { requestTimeoutMs: 500 } } as unknown as RunPlan;
}

/**
 * A target that answers after `delayMs` (`firstDelayMs(method)` for a method's first request: its one-time work), or
 * never for the methods `silent` names; counts what is in flight.
 */
function fakeTarget(delayMs: number | ((sent: number) => number), silent: (method: string) => boolean = () => false, firstDelayMs?: (method: string) => number) {
  const delayOf = (sent: number): number => (typeof delayMs === 'number' ? delayMs : delayMs(sent));
  const state = { inFlight: 0, mostInFlight: 0, sent: [] as string[], sentWhileDraining: 0, draining: false, drains: 0 };
  const caller = {
    call: async (method: string): Promise<Exchange> => {
      if (state.draining) state.sentWhileDraining++;
      const first = !state.sent.includes(method);
      const later = delayOf(state.sent.length);
      state.sent.push(method);
      state.inFlight++;
      state.mostInFlight = Math.max(state.mostInFlight, state.inFlight);
      const took = first && firstDelayMs ? firstDelayMs(method) : later;
      await new Promise((resolve) => setTimeout(resolve, took));
      state.inFlight--;
      // The time the answer took, as a client reports it: a busy machine firing the timer late does not change it.
      const exchange: Exchange = { conn: 'calibration', method, id: 1, params: {}, requestText: '', elapsedMs: took, correlation: silent(method) ? 'none' : 'exact' };
      return silent(method) ? { ...exchange, failure: { code: 'REQUEST_TIMEOUT', message: 'timed out' } } : { ...exchange, response: { jsonrpc: '2.0', id: 1, result: {} } };
    },
  };
  const drained = async (): Promise<void> => {
    state.drains++;
    state.draining = true;
    await new Promise((resolve) => setTimeout(resolve, 30));
    state.draining = false;
  };
  return { state, caller, drained };
}

const FAR_MS = [150, 180, 240, 130, 250, 160, 200, 230, 140, 190];

const written = (plan: RunPlan): Calibration => JSON.parse(readFileSync(join(plan.workDir, 'budget-calibration.json'), 'utf8')) as Calibration;

test('the calibration times every method, sends again one much slower than the quickest answer (the quicker kept), and as many at a time as the method runs go on, never more', async () => {
  const plan = planIn(scratchDir('contract-gate-calibration'));
  const some = refs.slice(0, 10);
  // Every request takes 10 ms, but the first one of the later methods pays 200 ms of one-time work on the target.
  const costly = new Set(some.slice(4).map((ref) => ref.method));
  const { state, caller, drained } = fakeTarget(10, () => false, (method) => (costly.has(method) ? 200 : 10));
  await calibrateOnce(plan, some, caller, drained, 4);
  expect(state.mostInFlight, 'requests at once').toBe(4);
  const calibration = written(plan);
  expect(Object.keys(calibration).sort()).toEqual(some.map((ref) => ref.method).sort());
  for (const [method, measured] of Object.entries(calibration)) {
    expect(measured.silent, method).toBe(false);
    expect(measured.ms, method).toBeGreaterThanOrEqual(9);
    if (!costly.has(method)) continue;
    expect(state.sent.filter((sent) => sent === method), `${method} sent again`).toHaveLength(2);
    expect(measured.ms, `${method}: the second request's time, not the first's`).toBeLessThan(200);
  }
  // A far target, where every answer takes about as long (130-250 ms, within twice the quickest): nothing is sent twice.
  const farPlan = planIn(scratchDir('contract-gate-calibration'));
  const far = fakeTarget((sent) => FAR_MS[sent % FAR_MS.length] as number);
  await calibrateOnce(farPlan, some, far.caller, far.drained, 4);
  expect(far.state.sent).toHaveLength(some.length);
  expect(await readCalibration(plan, 0)).toEqual(calibration);

  const one = planIn(scratchDir('contract-gate-calibration'));
  const sequential = fakeTarget(1);
  await calibrateOnce(one, refs, sequential.caller, sequential.drained);
  expect(sequential.state.mostInFlight, 'one lane: one request at a time').toBe(1);
});

test('a request left unanswered holds every other one until the target drained, once; the calibration stops after the silence limit', async () => {
  const quiet = new Set([refs[5]?.method]);
  const plan = planIn(scratchDir('contract-gate-calibration'));
  const one = fakeTarget(10, (method) => quiet.has(method));
  await calibrateOnce(plan, refs, one.caller, one.drained, 4);
  expect(one.state.drains, 'one drain for the one silent method, whose request is not sent again').toBe(1);
  expect(one.state.sent.filter((method) => quiet.has(method))).toHaveLength(1);
  expect(one.state.sentWhileDraining, 'nothing sent while the target drains').toBe(0);
  const calibration = written(plan);
  expect(calibration[refs[5]?.method as string]?.silent).toBe(true);
  expect(Object.keys(calibration)).toHaveLength(refs.length);

  const mute = planIn(scratchDir('contract-gate-calibration'));
  const none = fakeTarget(10, () => true);
  await calibrateOnce(mute, refs, none.caller, none.drained, 4);
  expect(none.state.sentWhileDraining).toBe(0);
  // The lanes' requests already in flight when the limit is reached end too: at most one more per lane.
  expect(none.state.sent.length, 'stopped after the silence limit').toBeLessThan(SILENT_REQUESTS_LIMIT + 4);
  expect(Object.values(written(mute)).every((measured) => measured.silent)).toBe(true);
});

test('a second method run finds the calibration taken and sends nothing', async () => {
  const plan = planIn(scratchDir('contract-gate-calibration'));
  const first = fakeTarget(5);
  const second = fakeTarget(5);
  await Promise.all([calibrateOnce(plan, refs, first.caller, first.drained, 2), calibrateOnce(plan, refs, second.caller, second.drained, 2)]);
  expect(second.state.sent).toEqual([]);
  expect(new Set(first.state.sent).size).toBe(refs.length);
});
