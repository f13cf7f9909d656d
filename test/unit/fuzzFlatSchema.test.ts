import { expect, test } from './helpers/test.js';
import { expectEqual } from './helpers/fastExpect.js';
import * as fc from 'fast-check';
import type { JsonSchema, JsonSchemaObject } from '../../core/index.js';
import { emptyFlat, flatOf, type FlatSchema, type MergeResult, mergeFlat, mergeFlatInFull } from '../../fuzz/flatSchema.js';

/** A flat schema as plain data, Maps and Sets as entry lists in their order. */
function plain(result: MergeResult): unknown {
  if ('never' in result) return result;
  const flat = result.flat;
  return {
    ...flat,
    properties: [...flat.properties],
    required: [...flat.required],
    forbidden: [...flat.forbidden],
    patternProperties: [...flat.patternProperties],
  };
}

// Nodes built to hit what a merge rewrites: enum values of excluded types, false or pattern-matched properties,
// required keys a closed node cannot have, empty type lists.
const value = fc.constantFrom(null, 1, 1.5, 'a', true, [], {});
const sub: fc.Arbitrary<JsonSchema> = fc.constantFrom<JsonSchema>(true, false, {}, { type: 'string' }, { type: 'null' }, { minimum: 1 }, { title: 'annotation only' });
const node: fc.Arbitrary<JsonSchemaObject> = fc.record(
  {
    type: fc.oneof(fc.constantFrom('string', 'integer', 'number', 'object', 'null'), fc.subarray(['string', 'integer', 'number', 'object', 'null'])),
    enum: fc.array(value, { maxLength: 3 }),
    const: value,
    properties: fc.dictionary(fc.constantFrom('a', 'b', 'x1', 'x2'), sub, { maxKeys: 3 }),
    patternProperties: fc.dictionary(fc.constantFrom('^x', '^b$', 'z'), sub, { maxKeys: 2 }),
    required: fc.subarray(['a', 'b', 'x1', 'q']),
    additionalProperties: sub,
    pattern: fc.constantFrom('^a', 'b'),
    minLength: fc.nat(3),
    items: sub,
    default: value,
    not: fc.constantFrom<JsonSchema>({ type: 'null' }, { minimum: 3 }),
    contains: sub,
  },
  { requiredKeys: [] },
);

/** Flat schemas as expansions make them: one node, or the merge of two. */
const flat: fc.Arbitrary<FlatSchema> = fc.oneof(
  node.map(flatOf),
  fc.tuple(node, node).map(([a, b]) => mergeFlatInFull(flatOf(a), flatOf(b))).filter((r): r is { flat: FlatSchema } => 'flat' in r).map((r) => r.flat),
);

/** Sides that constrain nothing, with or without a default (annotation-only nodes). */
const blank: fc.Arbitrary<FlatSchema> = fc.constantFrom<JsonSchemaObject>({}, { title: 't' }, { default: null }, { default: 'd', description: 'x' }).map(flatOf);

test('merging with a side that constrains nothing gives what the full merge gives, in both orders', () => {
  expect(flatOf({ default: 1 })).toEqual({ ...emptyFlat(), default: { value: 1 } });
  fc.assert(
    fc.property(blank, flat, (empty, other) => {
      expectEqual(plain(mergeFlat(empty, other)), plain(mergeFlatInFull(empty, other)));
      expectEqual(plain(mergeFlat(other, empty)), plain(mergeFlatInFull(other, empty)));
    }),
    { numRuns: 300 },
  );
});

test('two constraining sides are merged in full', () => {
  fc.assert(fc.property(flat, flat, (a, b) => expectEqual(plain(mergeFlat(a, b)), plain(mergeFlatInFull(a, b)))), { numRuns: 500 });
});
