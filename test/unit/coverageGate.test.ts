import { expect, test } from './helpers/test.js';
import fc from 'fast-check';
import { coverageShortfall, shortfallText } from '../../src/report/coverageGate.js';
import { buildMatrix, type TestRecord } from '../../src/report/matrixModel.js';
import type { MatrixRun } from '../../src/report/matrixTypes.js';
import { verdictSentence } from '../../src/report/renderMarkdown.js';
import { mergeShardRecords, type ShardRecords } from '../../src/report/shardRecords.js';
import { expectIs } from './helpers/fastExpect.js';

/*
 * `--min-coverage`: a run whose every cell holds still fails the gate when fewer than the given percentage of its
 * methods answered a valid call with a success. A shard's matrix covers part of the methods: the merge is judged.
 */

const RUN: MatrixRun = { target: 'ws://127.0.0.1:0/api/ws', contracts: [{ title: 'T', version: '1', path: 't.json' }], seed: 1 };
const AT = '2026-01-01T00:00:00.000Z';

/** A passing params.valid-accepted cell of `method`, which reached a success when `reached`. */
function validCell(method: string, reached: boolean): TestRecord {
  const annotations = reached ? [{ type: 'contract-gate.reached', description: method }] : [];
  return { outcome: 'expected', expectedStatus: 'passed', status: 'passed', annotations, errors: [], tags: [`@method:${method}`, '@check:params.valid-accepted'] };
}

const methods = (reached: number, total: number): TestRecord[] => Array.from({ length: total }, (_, index) => validCell(`m${index}`, index < reached));

test('property: every cell passing, the verdict fails exactly when the reached share is below the floor', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 100 }), (a, b, min) => {
      const [reached, total] = a <= b ? [a, b] : [b, a];
      const matrix = buildMatrix(methods(reached, total), { ...RUN, minCoverage: min }, AT);
      const below = min > 0 && (total === 0 || reached * 100 < min * total);
      expectIs(matrix.verdict, below ? 'fail' : 'pass');
      expectIs(coverageShortfall(matrix) !== undefined, below);
      expectIs(matrix.minCoverage, min);
    }),
  );
});

test('the floor is inclusive, says what it missed by, and fails a selection that judged no method', () => {
  expect(buildMatrix(methods(1, 2), { ...RUN, minCoverage: 50 }, AT).verdict).toBe('pass');
  const below = buildMatrix(methods(1, 3), { ...RUN, minCoverage: 34 }, AT);
  expect(below.verdict).toBe('fail');
  expect(verdictSentence(below)).toBe('FAIL: coverage 1/3 methods reached with a success (33%), below --min-coverage 34%.');
  const none = buildMatrix([], { ...RUN, minCoverage: 1 }, AT);
  expect(none.verdict).toBe('fail');
  expect(shortfallText(coverageShortfall(none) ?? { min: 0, reached: 0, methods: 0 })).toBe('no method has a params.valid-accepted check, below --min-coverage 1%');
  // Without a floor the same run passes, and its matrix does not mention one.
  const unfloored = buildMatrix(methods(0, 3), RUN, AT);
  expect(unfloored.verdict).toBe('pass');
  expect('minCoverage' in unfloored).toBe(false);
});

test("a failing cell and the shortfall are both named; a shard's matrix is not held to the floor, the merge of the shards is", () => {
  const failing: TestRecord = { ...validCell('m9', false), outcome: 'unexpected', status: 'failed', errors: ['Error: boom'], tags: ['@method:m9', '@check:result.schema'] };
  expect(verdictSentence(buildMatrix([...methods(0, 2), failing], { ...RUN, minCoverage: 10 }, AT))).toBe('FAIL: 1 check fails, coverage 0/2 methods reached with a success (0%), below --min-coverage 10%.');

  // Shard 1 reached both of its methods, shard 2 none of its two: 50% over the run.
  const shards: ShardRecords[] = [
    { version: 1, run: { ...RUN, shard: '1/2' }, records: [validCell('a', true), validCell('b', true)] },
    { version: 1, run: { ...RUN, shard: '2/2' }, records: [validCell('c', false), validCell('d', false)] },
  ];
  const shardMatrices = shards.map((shard) => buildMatrix(shard.records, { ...RUN, shard: shard.run.shard, minCoverage: 60 }, AT));
  expect(shardMatrices.map((matrix) => matrix.verdict)).toEqual(['pass', 'pass']);
  expect(shardMatrices.map((matrix) => matrix.minCoverage)).toEqual([60, 60]);
  const merged = mergeShardRecords(shards, { ...RUN, shard: '1/2', minCoverage: 60 });
  expect(merged.shard).toBeUndefined();
  expect([merged.verdict, merged.coverage.reached.length, merged.coverage.methods]).toEqual(['fail', 2, 4]);
  expect(mergeShardRecords(shards, { ...RUN, shard: '1/2', minCoverage: 50 }).verdict).toBe('pass');
});
