import { expect, test } from './helpers/test.js';
import { ProgressLines } from '../../src/report/progressLines.js';

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
