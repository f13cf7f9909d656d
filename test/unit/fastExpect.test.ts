import { expect, test } from './helpers/test.js';
import fc from 'fast-check';
import { expectContains, expectEqual, expectFields, expectIs } from './helpers/fastExpect.js';

// The fast assertions skip `expect` when a plain comparison says it would pass: each must fail exactly where the
// `expect` it stands for fails, or a property test using it could pass over a real difference.

const throws = (assertion: () => void): boolean => {
  try {
    assertion();
    return false;
  } catch {
    return true;
  }
};

// Small pools, so that equal, nearly equal and equal-but-not-identical values meet often.
const leaf = fc.constantFrom<unknown>(0, -0, 1, '1', NaN, null, undefined, true, false, '', 'a');
const value = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leaf, leaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 3 }),
  object: fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('value'), { maxKeys: 3 }),
})).value;
const pair = fc.oneof(fc.tuple(value, value), value.map((v) => [v, structuredClone(v)] as const));

test('expectIs and expectEqual fail exactly where toBe and toEqual fail', () => {
  fc.assert(
    fc.property(pair, ([actual, expected]) => {
      const mismatch: string[] = [];
      if (throws(() => expectIs(actual, expected)) !== throws(() => expect(actual).toBe(expected))) mismatch.push('expectIs');
      if (throws(() => expectEqual(actual, expected)) !== throws(() => expect(actual).toEqual(expected))) mismatch.push('expectEqual');
      expectEqual(mismatch, []);
    }),
    { numRuns: 300 },
  );
});

test('expectFields and expectContains fail exactly where toMatchObject and toContain fail', () => {
  const record = fc.dictionary(fc.constantFrom('a', 'b', 'c'), value, { maxKeys: 3 });
  fc.assert(
    fc.property(fc.oneof(record, value), record, value, fc.array(value, { maxLength: 4 }), (actual, expected, item, list) => {
      const mismatch: string[] = [];
      if (throws(() => expectFields(actual, expected)) !== throws(() => expect(actual).toMatchObject(expected))) mismatch.push('expectFields');
      if (throws(() => expectContains(list, item)) !== throws(() => expect(list).toContain(item))) mismatch.push('expectContains');
      expectEqual(mismatch, []);
    }),
    { numRuns: 300 },
  );
});
