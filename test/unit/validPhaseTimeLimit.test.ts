import { expect, test } from './helpers/test.js';
import * as fc from 'fast-check';
import type { JsonSchema, JsonValue } from '../../core/index.js';
import { arbitraryFromSchema } from '../../fuzz/index.js';
import type { CaseSender } from '../../src/conformance/caseSender.js';
import { methodBases } from '../../src/conformance/methodBases.js';
import type { CaseRecord } from '../../src/conformance/methodRunTypes.js';
import { runValidPhase } from '../../src/conformance/validPhase.js';
import type { ContractMethod } from '../../src/contracts/contractModel.js';

const SCHEMA: JsonSchema = { type: 'object', properties: { n: { type: 'integer' }, s: { type: 'string', maxLength: 4 } }, required: ['n'], additionalProperties: false };
const resolver = { resolve: () => undefined };
const method = { name: 'm', paramsSchema: SCHEMA, paramStructure: 'by-name', declaredStructure: 'by-name', descriptors: [], pointer: '/methods/0', resultSchema: undefined, errors: [], summary: undefined } as ContractMethod;

const blockFor = (ms: number): void => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // a handler that holds the thread: no timer can fire meanwhile
  }
};

/** A sender whose n-th case takes `costs[n]`: a number of ms of waiting, or `block` ms of holding the thread. */
function fakeSender(costs: Array<number | { block: number }>): { sender: CaseSender; sent: JsonValue[] } {
  const sent: JsonValue[] = [];
  const send = async (phase: string, generated: JsonValue): Promise<CaseRecord> => {
    const cost = costs[sent.length] ?? 0;
    sent.push(generated);
    if (typeof cost === 'number') await new Promise((resolve) => setTimeout(resolve, cost));
    else blockFor(cost.block);
    return { phase, generated, exchange: { response: { result: null } } } as unknown as CaseRecord;
  };
  return { sender: { send } as unknown as CaseSender, sent };
}

/** The valid phase as it read with fast-check's own interruptAfterTimeLimit. */
async function withFastChecksTimeLimit(sender: CaseSender, timeLimitMs: number, runs: number): Promise<{ records: CaseRecord[]; runs: number }> {
  const bases = methodBases(method, resolver);
  if (bases.unsatisfiable) throw bases.unsatisfiable;
  const records: CaseRecord[] = [];
  const details = await fc.check(
    fc.asyncProperty(arbitraryFromSchema(SCHEMA, { resolver }), async (generated) => {
      const record = await sender.send('valid', generated);
      if (record) records.push(record);
      return true;
    }),
    { seed: 5, numRuns: runs, examples: [[bases.minimal], [bases.full]], interruptAfterTimeLimit: timeLimitMs, markInterruptAsFailure: false },
  );
  return { records, runs: details.numRuns };
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('the valid phase keeps fast-check\'s time limit: the same cases sent, runs counted and records kept', async () => {
  // Every margin is 150 ms or more: on a loaded machine a timer fires late (tens of milliseconds behind four busy
  // test workers), and each scenario runs twice, ours then the reference, so both must land on the same side of it.
  const scenarios: Array<{ costs: Array<number | { block: number }>; limit: number; runs: number; completed: number }> = [
    // Nothing reaches the limit.
    { costs: [], limit: 60_000, runs: 8, completed: 8 },
    // The third case is still waiting when the limit passes (the first two end 200 ms before it, the third 400 ms
    // after it): the phase ends, its record still comes.
    { costs: [200, 200, 600, 0, 0], limit: 600, runs: 8, completed: 2 },
    // The first case holds the thread past the limit: it counts, no further case starts.
    { costs: [{ block: 200 }, 0, 0], limit: 40, runs: 8, completed: 1 },
    // The limit passes during the second case, which holds the thread (the first ends 180 ms before the limit).
    { costs: [20, { block: 400 }, 0], limit: 200, runs: 8, completed: 2 },
  ];
  for (const { costs, limit, runs, completed } of scenarios) {
    const ours = fakeSender(costs);
    const bases = methodBases(method, resolver);
    // A validator that refuses the long-string variant: the examples are the two bases, as in the reference.
    const phase = await runValidPhase({ method, resolver, validateParams: () => [{ instancePath: '', keyword: 'maxLength', message: 'too long', params: {} }], sender: ours.sender, seed: 5, runs, timeLimitMs: limit, bases });
    const theirs = fakeSender(costs);
    const reference = await withFastChecksTimeLimit(theirs.sender, limit, runs);
    expect(phase.runs, JSON.stringify(costs)).toBe(reference.runs);
    expect(phase.runs, JSON.stringify(costs)).toBe(completed);
    // Until the case still waiting when the limit passed has ended.
    await settle(Math.max(0, ...costs.map((cost) => (typeof cost === 'number' ? cost : 0))));
    expect(ours.sent, JSON.stringify(costs)).toEqual(theirs.sent);
    expect(phase.records.map((r) => r.generated)).toEqual(reference.records.map((r) => r.generated));
  }
});

test('a shrink ends at its time limit, and gives no counterexample when it found none in time', async () => {
  // Each case takes 30 ms and only the twelfth and later ones fail: the shrink's replay reaches the first failure
  // after about 360 ms. Without a limit it finds it; with 200 ms it stops before, with no time left it sends nothing.
  let sends = 0;
  const slow = { send: async (phase: string, generated: JsonValue) => (await settle(30), { phase, generated, exchange: { response: { result: null } }, sent: ++sends }) } as unknown as CaseSender;
  const phase = await runValidPhase({ method, resolver, validateParams: () => [], sender: slow, seed: 5, runs: 20, timeLimitMs: 60_000, bases: methodBases(method, resolver) });
  const fromTwelfth = (record: CaseRecord): boolean => (record as unknown as { sent: number }).sent - sentBefore >= 12;
  let sentBefore = sends;
  expect(await phase.shrink(fromTwelfth, 200), 'cut short before the failure came round').toBeUndefined();
  // The cases that fit in the limit and the one that started before it (a count: a loaded machine's timer lag makes
  // fewer, never more).
  expect(sends - sentBefore, 'cases sent within the limit').toBeLessThanOrEqual(Math.ceil(200 / 30) + 1);
  sentBefore = sends;
  expect(await phase.shrink(fromTwelfth, 0), 'no time left').toBeUndefined();
  expect(sends, 'no time left: nothing sent').toBe(sentBefore);
  sentBefore = sends;
  expect(await phase.shrink(fromTwelfth), 'the phase\'s own limit: the failure is found').toBeDefined();
});

test("a case's cost, measured on the examples: the quickest answered one, not the first (which pays for one-time work); the mean when none was answered", async () => {
  // The examples of a budgeted method run alone (examplesOnly: the smallest payload, every optional key, long
  // strings): the first takes 300 ms, the others 20 ms.
  const costs = [300, 20, 20];
  const answered = fakeSender(costs);
  const phase = await runValidPhase({ method, resolver, validateParams: () => [], sender: answered.sender, seed: 5, runs: 20, timeLimitMs: 60_000, bases: methodBases(method, resolver), examplesOnly: true });
  expect(phase.examples).toBe(3);
  expect(phase.caseMs).toBeGreaterThanOrEqual(19);
  expect(phase.caseMs, 'the second example, not the first').toBeLessThan(300);

  // No answer (the target went silent): the mean of the cases' times.
  let sends = 0;
  const unanswered = { send: async (phase: string, generated: JsonValue) => (await settle(costs[sends++] ?? 0), { phase, generated, exchange: {} }) } as unknown as CaseSender;
  const silent = await runValidPhase({ method, resolver, validateParams: () => [], sender: unanswered, seed: 5, runs: 20, timeLimitMs: 60_000, bases: methodBases(method, resolver), examplesOnly: true });
  expect(silent.caseMs, 'the mean of 300, 20 and 20 ms').toBeGreaterThanOrEqual(113);
});
