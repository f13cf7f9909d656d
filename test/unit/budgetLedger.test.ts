import { expect, test } from './helpers/test.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MethodLedger } from '../../fixtures/budgetLedger.js';
import type { Calibration, MethodRunRef } from '../../fixtures/budgetCalibration.js';
import { shareFlowOverLanes } from '../../fixtures/flow.js';
import { keepRunRecordsInMemory, ledgerEntries } from '../../fixtures/runRecords.js';
import type { RunPlan } from '../../src/run/runPlan.js';
import { scratchDir } from './helpers/scratchDir.js';

// The budget's ledger on a fast target, where the first request of each method and the run's start-up weigh more
// than the cases themselves: a budget the run fits in with room to spare must not cut it.

const METHODS = Array.from({ length: 10 }, (_, index) => `m${index}`);
const refs: MethodRunRef[] = METHODS.map((method) => ({ contractIndex: 0, method }));

function budgetedPlan(budgetMs: number, calibration: Calibration): RunPlan {
  const workDir = scratchDir('contract-gate-ledger');
  mkdirSync(workDir, { recursive: true });
  writeFileSync(join(workDir, 'budget-calibration.json'), JSON.stringify(calibration));
  const plan = { workDir, config: { budgetMs, runs: 100, startedAt: Date.now(), workers: undefined, maxInFlight: 1 } } as unknown as RunPlan;
  keepRunRecordsInMemory(plan);
  shareFlowOverLanes(plan, 1);
  return plan;
}

test("a calibration that carried the start-up's delay on every request does not cut a run the budget has room for", async () => {
  // Ten methods whose cases cost 1 ms: 3 examples, 30 ms of fixed cases and 97 generated cases each, 1.3 s in all on
  // one lane. Their calibration requests took 11 ms each, 10 ms of it the start-up's (the other runs starting beside
  // them). Read as they are, the methods not measured yet would need 11 ms a case, 14 s: a 3 s budget would cut
  // every run.
  const calibration: Calibration = Object.fromEntries(METHODS.map((method) => [method, { ms: 11, silent: false }]));
  const plan = budgetedPlan(3_000, calibration);
  for (const [index, method] of METHODS.slice(0, 3).entries()) {
    const ledger = new MethodLedger(plan, method, method);
    const grant = await ledger.grant({ examples: 3, perRunMs: 1, fixedMs: 30 }, refs);
    expect(grant.runs, `${method}, asking after ${index} others`).toBe(100);
    ledger.ended(100, 130);
  }
});

test('a grant used up on cases that cost far less than its examples did is decided again, and grows; one that costs what it was granted on does not', async () => {
  // The examples took 100 ms a case (the method's first requests: its schemas compiled on both sides), the budget
  // leaves room for a few such cases. The generated cases then go by in microseconds.
  const calibration: Calibration = Object.fromEntries(METHODS.map((method) => [method, { ms: 1, silent: false }]));
  const plan = budgetedPlan(3_000, calibration);
  const ledger = new MethodLedger(plan, 'm0', 'm0');
  const grant = await ledger.grant({ examples: 3, perRunMs: 100, fixedMs: 300 }, refs.slice(0, 1));
  expect(grant.runs, 'granted on the examples').toBeLessThan(100);
  let made = 0;
  while (made < 97 && grant.goOn(made)) made++;
  expect(made, 'the generated cases made once the grant was decided again').toBe(97);

  // A method whose cases cost more than half what its examples did keeps its grant (cases of 60 ms, held on the
  // thread, on a shorter budget: a few cases).
  const slowPlan = budgetedPlan(1_500, calibration);
  const slow = new MethodLedger(slowPlan, 'm0', 'm0');
  const slowGrant = await slow.grant({ examples: 3, perRunMs: 100, fixedMs: 300 }, refs.slice(0, 1));
  const limit = slowGrant.runs - 3;
  expect(limit).toBeGreaterThan(0);
  let slowMade = 0;
  for (; slowMade < 97; slowMade++) {
    const busyUntil = performance.now() + (slowMade === 0 ? 0 : 60);
    while (performance.now() < busyUntil);
    if (!slowGrant.goOn(slowMade)) break;
  }
  expect(slowMade, 'made what it was granted, no more').toBeLessThanOrEqual(limit);
});

test("a method run's progress reaches the ledger at most once a second, and not at all from a run shorter than that", async () => {
  const plan = budgetedPlan(60_000, {});
  const entryOf = (method: string) => ledgerEntries(plan).find((entry) => entry.method === method);
  const short = new MethodLedger(plan, 'm0', 'm0');
  for (let made = 1; made <= 50; made++) short.progress(made);
  expect(entryOf('m0')?.validMade, 'a run of less than a second writes none').toBeUndefined();
  short.ended(50, 40);
  expect([entryOf('m0')?.made, entryOf('m0')?.validMade], 'what it made reaches the ledger with its end').toEqual([50, 50]);

  const long = new MethodLedger(plan, 'm1', 'm1');
  await new Promise((resolve) => setTimeout(resolve, 1_050));
  long.progress(7);
  long.progress(8);
  const written = entryOf('m1');
  expect(written?.validMade, 'the first case after a second is written, the next one in the same second is not').toBe(7);
  expect(written?.validMadeAt).toBeGreaterThanOrEqual((written?.startedAt ?? 0) + 1_000);
});

test('a method granted no generated case on examples far dearer than the typical case gets one, and grows once it proves cheap; one whose case would take over a tenth of the time left gets none', async () => {
  // 25 methods on one lane under 5 s. Three have run, their cases 10 ms each; 21 have not, estimated at as much, so
  // every method wants more than its share. m0's examples took 300 ms a case, one-time work: its share, about 160 ms,
  // buys none of them.
  const many = Array.from({ length: 25 }, (_, index) => `m${index}`);
  const manyRefs: MethodRunRef[] = many.map((method) => ({ contractIndex: 0, method }));
  const grantOn = async (examplesMs: number) => {
    const plan = budgetedPlan(5_000, {});
    for (const method of many.slice(1, 4)) {
      const done = new MethodLedger(plan, method, method);
      await done.grant({ examples: 3, perRunMs: 10, fixedMs: 30 }, manyRefs);
      done.ended(100, 1_000);
    }
    return new MethodLedger(plan, 'm0', 'm0').grant({ examples: 3, perRunMs: examplesMs, fixedMs: 3 * examplesMs }, manyRefs);
  };

  const probed = await grantOn(300);
  expect(probed.runs, 'granted on the examples alone').toBe(3);
  let made = 0;
  while (made < 97 && probed.goOn(made)) made++;
  expect(made, 'one case measured, then the grant decided again on it').toBeGreaterThan(1);

  const tooSlow = await grantOn(500);
  expect([tooSlow.runs, tooSlow.goOn(0)], 'a case of 500 ms would take over a tenth of the time left').toEqual([3, false]);
});
