import { expect, test } from './helpers/test.js';
import { ProgressLines, quietRunsLine } from '../../src/report/progressLines.js';

test('method-run lines say how long the runs still take once one has ended, and nothing when the estimate has run out', () => {
  const lines: string[] = [];
  const progress = new ProgressLines({ write: (text: string) => lines.push(text) }, false);
  // Nothing measured yet, then 8 s, then runs that outlast the typical one (the estimate counted down to nothing).
  const estimates = [undefined, 8_000, 0, 10];
  progress.begin(20, 5, () => estimates.shift());
  for (let run = 0; run < 4; run++) progress.runEnded();
  progress.end('passed');
  const runLines = lines.filter((line) => line.startsWith('method runs'));
  expect(lines[0]).toBe('contract-gate: running 20 checks after 5 method runs\n');
  expect(runLines).toHaveLength(4);
  expect(runLines[0]).toMatch(/^method runs 20%: 1\/5, \d+\.\ds\n$/);
  expect(runLines[1]).toMatch(/^method runs 40%: 2\/5, \d+\.\ds, about 8\.0s left\n$/);
  expect(runLines[2]).toMatch(/^method runs 60%: 3\/5, \d+\.\ds\n$/);
  expect(runLines[3]).toMatch(/^method runs 80%: 4\/5, \d+\.\ds\n$/);
});

test('a long quiet stretch of method runs says they are still going before any ended, then how long they still take', () => {
  expect(quietRunsLine(0, 5, 15_200, undefined)).toBe('method runs 0/5, 15.2s, no case ended yet (the estimate comes with the first)');
  expect(quietRunsLine(0, 5, 15_200, 125_000)).toBe('method runs 0/5, 15.2s, about 2m 05s left (projected from the valid cases made so far; negative cases not counted yet)');
  expect(quietRunsLine(2, 5, 95_000, 125_000)).toBe('method runs 2/5, 1m 35s, about 2m 05s left');
  // Not worth a line of its own: an estimate under 30 s (the next run's line comes soon).
  expect(quietRunsLine(2, 5, 95_000, 12_000)).toBeUndefined();
});
