import { expect, test } from './helpers/test.js';
import fc from 'fast-check';
import { type FoundShard, shardSetProblem } from '../../src/report/runFacts.js';

// A merge gives the whole run's verdict only from every shard of the split, each once: a merge of some of the shards
// (a shard job that died before uploading its folder) would pass the other shards' cells unseen.

const found = (shards: readonly string[]): FoundShard[] => shards.map((shard, i) => ({ shard, path: `blob-${i}/matrix.json` }));

test('a set of shards makes the whole run exactly when it holds 1..n of one split, each once, in any order', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 8 }), fc.array(fc.integer({ min: 1, max: 8 }), { maxLength: 12 }), (total, picked) => {
      const indexes = picked.filter((index) => index <= total);
      const complete = indexes.length === total && new Set(indexes).size === total;
      const problem = shardSetProblem(found(indexes.map((index) => `${index}/${total}`)));
      // No shard at all is not this check's to refuse (the merge finds no matrix and says so).
      if (indexes.length === 0) return problem === undefined;
      return complete ? problem === undefined : problem !== undefined;
    }),
  );
});

test('the refusal names what is wrong: the missing shards, the one given twice, the other split, a malformed name', () => {
  expect(shardSetProblem(found(['1/3']))).toMatch(/^shards 2\/3, 3\/3 missing: no folder given holds their matrix\.json/);
  expect(shardSetProblem(found(['2/2']))).toMatch(/^shard 1\/2 missing: no folder given holds its matrix\.json/);
  expect(shardSetProblem(found(['1/2', '2/2', '1/2']))).toBe('shard 1/2 is given twice (blob-0/matrix.json and blob-2/matrix.json); give each shard\'s report folder once');
  expect(shardSetProblem(found(['1/2', '2/3']))).toBe('the shards are of different splits: 1/2 (blob-0/matrix.json) and 2/3 (blob-1/matrix.json); merge the shards of one run');
  expect(shardSetProblem(found(['3/2']))).toBe('blob-0/matrix.json names shard "3/2", not i/n');
  expect(shardSetProblem(found(['2/2', '1/2']))).toBeUndefined();
});
