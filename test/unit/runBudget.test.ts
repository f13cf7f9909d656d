import { expect, test } from './helpers/test.js';
import fc from 'fast-check';
import { allocateRuns, BUDGET_RESERVE, calibratedPerRunMs, calibrationOverheadMs, grantRuns, median, type MethodCost, predictedMs, quantile, reserveMs } from '../../src/run/runBudget.js';
import { generatedCasesEndMs, methodRunsEtaMs, PACE_FROM_CASES } from '../../src/run/runEta.js';
import { expectEqual, expectIs } from './helpers/fastExpect.js';

const cost = fc.record({
  fixedMs: fc.integer({ min: 0, max: 20_000 }),
  perRunMs: fc.oneof(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 200, max: 6_000 })),
  examples: fc.integer({ min: 0, max: 3 }),
  asked: fc.integer({ min: 1, max: 300 }),
}) satisfies fc.Arbitrary<MethodCost>;
const methods = fc.array(cost, { minLength: 1, maxLength: 40 });
const budget = fc.integer({ min: 0, max: 600_000 });
const extraOf = (method: MethodCost, runs: number): number => runs - method.examples;

test('the allocation never cuts a fixed example, never gives more than asked, and fits the budget whenever the fixed cases do', () => {
  fc.assert(
    fc.property(budget, methods, (budgetMs, list) => {
      const runs = allocateRuns(budgetMs, list);
      expectIs(runs.length, list.length);
      const wrong = list.flatMap((method, index) => {
        const made = runs[index] as number;
        return Number.isInteger(made) && made >= method.examples && made <= Math.max(method.examples, method.asked) ? [] : [`method ${index}: ${made} runs for ${method.examples} examples, ${method.asked} asked`];
      });
      expectEqual(wrong, []);
      const fixed = list.reduce((sum, method) => sum + method.fixedMs, 0);
      if (!(predictedMs(list, runs) <= Math.max(budgetMs, fixed) + 1e-6)) expect(predictedMs(list, runs)).toBeLessThanOrEqual(Math.max(budgetMs, fixed) + 1e-6);
    }),
  );
});

test('a budget that covers every case gives every method all it asked, whatever fraction of a millisecond a case costs', () => {
  // Measured costs are fractions of a millisecond (3.3 ms a case): a method's share, its demand, divided by the cost
  // again must still give every run it was multiplied from.
  const measured = fc.record({ fixedMs: fc.double({ min: 0, max: 20_000, noNaN: true }), perRunMs: fc.double({ min: 0.01, max: 6_000, noNaN: true }), examples: fc.integer({ min: 0, max: 3 }), asked: fc.integer({ min: 1, max: 300 }) });
  fc.assert(
    fc.property(fc.array(measured, { minLength: 1, maxLength: 40 }), fc.double({ min: 0, max: 1_000, noNaN: true }), (list, spare) => {
      const needed = predictedMs(list, list.map((method) => Math.max(method.examples, method.asked)));
      const runs = allocateRuns(needed + spare, list);
      const cut = list.flatMap((method, index) => ((runs[index] as number) === Math.max(method.examples, method.asked) ? [] : [`method ${index}: ${runs[index]} of ${method.asked} (${method.perRunMs} ms a case)`]));
      expectEqual(cut, []);
    }),
  );
  expect(allocateRuns(7_200_000, [{ fixedMs: 0, perRunMs: 3.3, examples: 0, asked: 47 }])).toEqual([47]);
});

test('the allocation is max-min fair in time: a method cut short never gets less time than another one more than a case', () => {
  fc.assert(
    fc.property(budget, methods, (budgetMs, list) => {
      const runs = allocateRuns(budgetMs, list);
      const time = list.map((method, index) => extraOf(method, runs[index] as number) * method.perRunMs);
      // Cut short: every other method's generated time is at most this one's plus one of this one's cases. (One
      // assertion per case: an expect per pair of methods was most of this test's time.)
      const unfair = list.flatMap((method, index) =>
        (runs[index] as number) >= method.asked ? [] : time.filter((other) => other > (time[index] as number) + method.perRunMs + 1e-6).map((other) => `method ${index} cut at ${time[index]} ms, another got ${other} ms`),
      );
      expectEqual(unfair, []);
    }),
  );
});

test('the allocation gives every method what it asked when it all fits, and fast methods their runs before a slow one', () => {
  const fast: MethodCost = { fixedMs: 500, perRunMs: 20, examples: 2, asked: 100 };
  const slow: MethodCost = { fixedMs: 5_000, perRunMs: 2_000, examples: 2, asked: 100 };
  expect(allocateRuns(1_000_000, [fast, slow])).toEqual([100, 100]);
  // 20 s: 5.5 s fixed, fast's 98 cases take 1.96 s, the slow one gets the rest (12.54 s: 6 cases).
  expect(allocateRuns(20_000, [fast, fast, slow])).toEqual([100, 100, 2 + Math.floor((20_000 - 5_000 - 1_000 - 2 * 1_960) / 2_000)]);
  // Less than the fixed cases: only the examples.
  expect(allocateRuns(1_000, [fast, slow])).toEqual([2, 2]);
});

test('a grant keeps the reserve, counts every lane, and never exceeds the wall time left on its own lane', () => {
  const self: MethodCost = { fixedMs: 0, perRunMs: 100, examples: 2, asked: 1_000 };
  const base = { startedAtMs: 0, budgetMs: 100_000, reserveMs: reserveMs(100_000, 1_000), lanes: 2, self, pending: [], inFlightMs: 0 };
  const cutoff = 100_000 * (1 - BUDGET_RESERVE) - 2 * 1_000;
  // Alone, with 2 lanes: the capacity is twice the wall time, but one lane runs one method.
  expect(grantRuns({ ...base, nowMs: cutoff - 10_000 })).toEqual({ runs: 2 + 100, timeLimitMs: 10_000 });
  // With one pending method just like it: the two share the 2 × 10 s.
  expect(grantRuns({ ...base, nowMs: cutoff - 10_000, pending: [{ ...self, fixedMs: 0 }] }).runs).toBe(2 + 100);
  expect(grantRuns({ ...base, nowMs: cutoff - 10_000, pending: [self, self, self] }).runs).toBe(2 + 50);
  // Past the cutoff: the examples only.
  expect(grantRuns({ ...base, nowMs: cutoff + 1 })).toEqual({ runs: 2, timeLimitMs: 0 });
  // Others still running take their part of the capacity first.
  expect(grantRuns({ ...base, nowMs: cutoff - 10_000, pending: [self], inFlightMs: 10_000 }).runs).toBe(2 + 50);
});

test('a grant never goes below the examples nor predicts past the budget on any lane', () => {
  fc.assert(
    fc.property(cost, fc.array(cost, { maxLength: 20 }), fc.integer({ min: 1_000, max: 600_000 }), fc.double({ min: 0, max: 1.2, noNaN: true }), fc.integer({ min: 1, max: 8 }), (self, pending, budgetMs, progress, lanes) => {
      const nowMs = Math.floor(budgetMs * progress);
      const me = { ...self, fixedMs: 0 };
      const grant = grantRuns({ nowMs, startedAtMs: 0, budgetMs, reserveMs: reserveMs(budgetMs, 0), lanes, self: me, pending, inFlightMs: 0 });
      if (!(grant.runs >= me.examples)) expect(grant.runs).toBeGreaterThanOrEqual(me.examples);
      if (!(grant.runs <= Math.max(me.examples, me.asked))) expect(grant.runs).toBeLessThanOrEqual(Math.max(me.examples, me.asked));
      const wallLeft = Math.max(0, budgetMs * (1 - BUDGET_RESERVE) - nowMs);
      if (!(Math.abs(grant.timeLimitMs - wallLeft) < 5e-7)) expect(grant.timeLimitMs).toBeCloseTo(wallLeft, 6);
      if (!(extraOf(me, grant.runs) * me.perRunMs <= wallLeft + 1e-6)) expect(extraOf(me, grant.runs) * me.perRunMs).toBeLessThanOrEqual(wallLeft + 1e-6);
    }),
  );
});

test('the estimate of the method runs left: nothing while nothing is measured, then the typical run for each one left, less what the running ones ran, over the lanes', () => {
  const entry = (method: string, startedAt: number, elapsedMs?: number) => ({ method, asked: 100, startedAt, ...(elapsedMs !== undefined ? { made: 100, elapsedMs } : {}) });
  expect(methodRunsEtaMs([entry('a', 0)], 4, 2, 1_000)).toBeUndefined();
  // a and b took 10 s and 20 s (typical: 15 s); c has run 5 s of its 15; d is not started: (10 + 15) / 2 lanes.
  expect(methodRunsEtaMs([entry('a', 0, 10_000), entry('b', 0, 20_000), entry('c', 20_000)], 4, 2, 25_000)).toBe(12_500);
  // A run already past the typical time counts as about to end.
  expect(methodRunsEtaMs([entry('a', 0, 10_000), entry('c', 0)], 2, 1, 60_000)).toBe(0);
});

test('under a budget the estimate ends where generated cases stop, unless the fixed cases of the methods not started take longer', () => {
  const ended = (method: string, elapsedMs: number, fixedMs: number) => ({ method, asked: 100, startedAt: 0, made: 100, elapsedMs, fixedMs });
  const entries = [ended('a', 30_000, 2_000), ended('b', 30_000, 2_000)];
  // Eight runs not started at 30 s each on two lanes: 120 s without a budget; generated cases stop 60 s from now.
  expect(methodRunsEtaMs(entries, 10, 2, 30_000)).toBe(120_000);
  expect(methodRunsEtaMs(entries, 10, 2, 30_000, 90_000)).toBe(60_000);
  // Past that end, the fixed cases of the eight still take 8 × 2 s over two lanes.
  expect(methodRunsEtaMs(entries, 10, 2, 95_000, 90_000)).toBe(8_000);
  expect(generatedCasesEndMs(120_000, 1_000)).toBe(1_000 + 120_000 * (1 - BUDGET_RESERVE));
  expect(generatedCasesEndMs(undefined, 1_000)).toBeUndefined();
});

test('before any method run ended, the estimate projects the valid phase of the ones going on from the cases they made so far', () => {
  const going = (method: string, startedAt: number, validMade?: number, validMadeAt?: number) => ({ method, asked: 100, startedAt, ...(validMade !== undefined ? { validMade, validMadeAt } : {}) });
  // No case has ended yet: nothing to project from.
  expect(methodRunsEtaMs([going('a', 0), going('b', 0, 0, 500)], 4, 2, 1_000)).toBeUndefined();
  // a made 10 of 100 cases in 4 s (a 40 s run), b 20 in 4 s (20 s): typical 30 s. a has 26 s left at 14 s, b 16 s;
  // two not started: (26 + 16 + 2 * 30) / 2 lanes.
  expect(methodRunsEtaMs([going('a', 0, 10, 4_000), going('b', 10_000, 20, 14_000)], 4, 2, 14_000)).toBe(51_000);
  // Once a run has ended, its measured time is the typical one, whatever the others project.
  expect(methodRunsEtaMs([{ ...going('a', 0, 100, 9_000), made: 100, elapsedMs: 10_000 }, going('b', 0, 1, 1_000)], 3, 1, 10_000)).toBe(10_000);
});

test('once runs have ended, a running run that made a few cases counts at its own pace, and the typical run is the mean of the lengths', () => {
  const ended = (method: string, elapsedMs: number) => ({ method, asked: 100, startedAt: 0, made: 100, elapsedMs });
  const going = (method: string, startedAt: number, validMade: number, validMadeAt: number) => ({ method, asked: 100, startedAt, validMade, validMadeAt });
  // a and b ended at 15 s; c made 20 of its 100 cases in 30 s (a 150 s run). Typical (15 + 15 + 150) / 3 = 60 s; c has
  // 120 s left; four not started on four lanes: (120 + 4 × 60) / 4. The median of the ended ones said 15 s.
  expect(methodRunsEtaMs([ended('a', 15_000), ended('b', 15_000), going('c', 0, 20, 30_000)], 7, 4, 30_000)).toBe(90_000);
  // Fewer cases than PACE_FROM_CASES say nothing yet (the first ones pay one-time costs): c counts at the typical 15 s,
  // which it has run past.
  expect(methodRunsEtaMs([ended('a', 15_000), ended('b', 15_000), going('c', 0, PACE_FROM_CASES - 1, 30_000)], 7, 4, 30_000)).toBe(15_000);
  // A run is never shorter than what it has run: d's pace says 10 s (its valid cases are done), it has run 40 s.
  expect(methodRunsEtaMs([ended('a', 15_000), going('d', 0, 100, 10_000)], 3, 1, 40_000)).toBe(27_500);
});

test("the calibration's overhead: the delay every calibration request carried is taken off the methods not measured yet, and a slow method keeps the rest", () => {
  const trueCost = fc.oneof(fc.double({ min: 0.1, max: 5, noNaN: true }), fc.double({ min: 200, max: 3_000, noNaN: true }));
  fc.assert(
    fc.property(fc.array(trueCost, { minLength: 1, maxLength: 30 }), fc.double({ min: 0, max: 200, noNaN: true }), trueCost, (measured, delay, unmeasured) => {
      // Every calibration request carried the same delay beyond what the method's cases cost later.
      const overhead = calibrationOverheadMs(measured.map((ms) => ({ calibratedMs: ms + delay, measuredMs: ms })));
      expectIs(Math.abs(overhead - delay) < 1e-6, true, `overhead ${overhead} for a delay of ${delay}`);
      expectEqual(calibratedPerRunMs(unmeasured + delay, overhead).toFixed(6), Math.max(1, unmeasured).toFixed(6));
    }),
  );
  fc.assert(
    fc.property(fc.array(fc.record({ calibratedMs: fc.double({ min: 0, max: 5_000, noNaN: true }), measuredMs: fc.double({ min: 0, max: 5_000, noNaN: true }) }), { maxLength: 30 }), fc.double({ min: 0, max: 5_000, noNaN: true }), (costs, calibrated) => {
      const overhead = calibrationOverheadMs(costs);
      expectIs(overhead >= 0, true, 'never below zero: a calibration quicker than the cases later never makes a method dearer');
      const estimate = calibratedPerRunMs(calibrated, overhead);
      expectIs(estimate >= 1 && estimate <= Math.max(1, calibrated), true, `${estimate} from ${calibrated}`);
    }),
  );
  // Nothing measured yet: the calibration as it is. A slow method among fast ones keeps nearly all its time.
  expect(calibrationOverheadMs([])).toBe(0);
  expect(calibratedPerRunMs(500, calibrationOverheadMs([{ calibratedMs: 11, measuredMs: 1 }, { calibratedMs: 12, measuredMs: 2 }, { calibratedMs: 30, measuredMs: 1.5 }]))).toBe(490);
});

test('quantiles: within the values, rising with q, the median in the middle; the fixed cases are estimated at the upper quartile', () => {
  fc.assert(
    fc.property(fc.array(fc.double({ min: 0, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 50 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (values, a, b) => {
      const [low, high] = a <= b ? [a, b] : [b, a];
      const atLow = quantile(values, low) as number;
      const atHigh = quantile(values, high) as number;
      expectIs(atLow <= atHigh, true, `q ${low} -> ${atLow}, q ${high} -> ${atHigh}`);
      expectIs(atLow >= Math.min(...values) && atHigh <= Math.max(...values), true);
      expectEqual(quantile(values, 0), Math.min(...values));
      expectEqual(quantile(values, 1), Math.max(...values));
    }),
  );
  expect(median([])).toBeUndefined();
  expect(median([3, 1, 2])).toBe(2);
  expect(median([4, 1, 3, 2])).toBe(2.5);
  // Fixed cases of 10, 12, 14 and 60 cases' worth: the upper quartile leans towards the costly one.
  expect(quantile([10, 12, 14, 60], 0.75)).toBe(25.5);
});
