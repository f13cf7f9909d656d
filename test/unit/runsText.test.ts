import { expect, test } from './helpers/test.js';
import { budgetOverrunSentence, durationText, runsSentence } from '../../src/report/runsText.js';

test('what a budget cut is said per method, the most cut first; a budget that cut nothing says so', () => {
  const methods = [
    { method: 'node.fast', asked: 100, made: 100, perRunMs: 2 },
    { method: 'node.slow', asked: 100, made: 2, perRunMs: 1_300 },
    { method: 'node.mid', asked: 100, made: 40, perRunMs: 30 },
  ];
  expect(runsSentence({ budgetMs: 20_000, cut: 2, methods })).toBe('budget 20s: valid runs cut on 2 of 3 methods: node.slow 2/100 (1s a case), node.mid 40/100 (30ms a case)');
  expect(runsSentence({ budgetMs: 90_000, cut: 0, methods: methods.map((method) => ({ ...method, made: method.asked })) })).toBe('budget 1m 30s: every method made the valid runs asked (3 methods)');
  expect(runsSentence({ cut: 1, methods })).toMatch(/^time limit: valid runs cut on 1 of 3 methods/);
  expect([durationText(850), durationText(5_000), durationText(300_000)]).toEqual(['850ms', '5s', '5m']);
});

test('a run that ended past its budget says by how much and what a budget never cuts; one within it says nothing', () => {
  expect(budgetOverrunSentence(1_000, 11_040)).toBe(
    'the run took 11.0s, 10.0s past its budget of 1s: a budget cuts generated cases only, never the fixed ones (examples, unknown-key probes, negative mutations) nor the cells after the method runs',
  );
  expect(budgetOverrunSentence(300_000, 304_100)).toMatch(/^the run took 5m 04s, 4\.1s past its budget of 5m:/);
  expect(budgetOverrunSentence(20_000, 15_000)).toBeUndefined();
  expect(budgetOverrunSentence(20_000, 20_000)).toBeUndefined();
});
