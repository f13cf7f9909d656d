import { expect, test } from './helpers/test.js';
import { expectContains, expectEqual, expectIs } from './helpers/fastExpect.js';
import fc from 'fast-check';
import { shape } from '../../gateway/core/contract/outboundShape.js';
import type { SchemaNode } from '../../gateway/core/contract/contractSet.js';
import { shape as interpretiveShape } from './helpers/interpretiveShape.js';

const DEFS: Record<string, SchemaNode> = {
  Inner: { type: 'object', additionalProperties: false, properties: { id: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } }, required: ['id', 'tags'] },
};
const resolve = (ref: string): SchemaNode | undefined => DEFS[ref.replace('#/$defs/', '')];

const OPEN: SchemaNode = {
  type: 'object',
  additionalProperties: true,
  properties: { a: { type: 'integer' }, b: { $ref: '#/$defs/Inner' }, c: { anyOf: [{ type: 'string' }, { type: 'null' }] }, d: { type: 'array', items: { $ref: '#/$defs/Inner' } } },
  required: ['a', 'c'],
};
const CLOSED: SchemaNode = { ...(OPEN as Record<string, unknown>), additionalProperties: false };

const inner = fc.record({ id: fc.string(), tags: fc.array(fc.string(), { maxLength: 3 }), extra: fc.integer() }, { requiredKeys: [] });
/** Objects carrying some declared keys and some extras, in any order. */
const value = fc
  .record({ a: fc.integer(), b: inner, c: fc.option(fc.string()), d: fc.array(inner, { maxLength: 3 }), x: fc.string(), y: fc.integer() }, { requiredKeys: [] })
  .chain((record) => fc.shuffledSubarray(Object.keys(record), { minLength: Object.keys(record).length }).map((order) => Object.fromEntries(order.map((key) => [key, (record as Record<string, unknown>)[key]]))));

for (const [label, schema] of [['open', OPEN], ['closed', CLOSED]] as const) {
  test(`shaping (${label} model): declared keys in declaration order, then extras; a shaped value is given back as it is`, () => {
    fc.assert(
      fc.property(value, (input) => {
        const before = JSON.stringify(input);
        const out = shape(input, schema, resolve) as Record<string, unknown>;
        expectIs(JSON.stringify(input), before);
        const keys = Object.keys(out);
        const declared = keys.filter((key) => ['a', 'b', 'c', 'd'].includes(key));
        expectEqual(declared, ['a', 'b', 'c', 'd'].filter((key) => declared.includes(key)));
        expectEqual(keys.slice(0, declared.length), declared);
        // A required nullable field left out is filled with null (a required integer has no empty value to take).
        expectContains(keys, 'c');
        if (label === 'closed') expectIs(keys.every((key) => declared.includes(key)), true);
        else expectEqual(keys.filter((key) => !declared.includes(key)).sort(), Object.keys(input).filter((key) => !['a', 'b', 'c', 'd'].includes(key)).sort());
        // The nested closed model: its extra dropped, `tags` (a required list) filled, `id` kept only when sent.
        if (out['b'] !== undefined) expectEqual(Object.keys(out['b'] as object), 'id' in (out['b'] as object) ? ['id', 'tags'] : ['tags']);
        // Shaping twice: the second pass finds nothing to change and returns the very same object.
        expectIs(shape(out, schema, resolve), out);
        expectEqual(shape(structuredClone(out), schema, resolve), out);
      }),
      { numRuns: 150 },
    );
  });
}

test('a value that already fits comes back as the same reference; one that does not is copied, never changed in place', () => {
  const fits = { a: 1, b: { id: 'x', tags: [] }, c: null, z: true };
  expect(shape(fits, OPEN, resolve)).toBe(fits);
  const outOfOrder = { c: null, a: 1 };
  const shaped = shape(outOfOrder, OPEN, resolve);
  expect(shaped).not.toBe(outOfOrder);
  expect(Object.keys(shaped as object)).toEqual(['a', 'c']);
  expect(Object.keys(outOfOrder)).toEqual(['c', 'a']);
  const missing = { a: 1 };
  expect(shape(missing, OPEN, resolve)).toEqual({ a: 1, c: null });
  expect(missing).toEqual({ a: 1 });
});

/** Schemas with every shape the compiler distinguishes: $ref chains, anyOf/oneOf with scoring, allOf, maps, defaults, recursion. */
const ORACLE_DEFS: Record<string, SchemaNode> = {
  ...DEFS,
  Kind: { type: 'object', properties: { kind: { const: 'k' }, n: { type: 'integer', default: 3 } }, required: ['kind', 'n'], additionalProperties: false },
  Other: { type: 'object', properties: { kind: { const: 'o' }, list: { type: 'array', items: { type: 'string' } }, opt: { anyOf: [{ $ref: '#/$defs/Inner' }, { type: 'null' }] } }, required: ['kind', 'list', 'opt'] },
  Tree: { type: 'object', properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Tree' } }, meta: { type: 'object', properties: { deep: { type: 'object', properties: { x: { type: 'integer' } }, required: ['x'] } }, required: ['deep'] } }, required: ['children', 'meta'] },
  Map: { type: 'object', additionalProperties: { $ref: '#/$defs/Inner' } },
  Defaults: { type: 'object', properties: { obj: { type: 'object', default: { a: [1] } }, arr: { type: 'array', default: ['x'] }, alias: { $ref: '#/$defs/Alias' } }, required: ['obj', 'arr', 'alias'] },
  Alias: { $ref: '#/$defs/Kind' },
};
const oracleResolve = (ref: string): SchemaNode | undefined => ORACLE_DEFS[ref.replace('#/$defs/', '')];
const ORACLE_SCHEMAS: SchemaNode[] = [
  OPEN,
  CLOSED,
  { anyOf: [{ $ref: '#/$defs/Kind' }, { $ref: '#/$defs/Other' }, { type: 'null' }] },
  { oneOf: [{ $ref: '#/$defs/Other' }, { $ref: '#/$defs/Kind' }] },
  { allOf: [{ $ref: '#/$defs/Kind' }, { properties: { extra: { type: 'string' } } }] },
  { $ref: '#/$defs/Tree' },
  { $ref: '#/$defs/Map' },
  { $ref: '#/$defs/Defaults' },
  { type: 'array', items: { $ref: '#/$defs/Alias' } },
  true,
];
/** Combinators below a container: their plans are asked whether a member fits before anything is shaped. */
const NESTED_COMBINATORS: SchemaNode[] = [
  { type: 'array', items: { allOf: [{ $ref: '#/$defs/Kind' }, { properties: { extra: { type: 'string' } } }] } },
  { type: 'object', properties: { a: { oneOf: [{ $ref: '#/$defs/Other' }, { $ref: '#/$defs/Kind' }] } } },
  { type: 'object', properties: { a: { anyOf: [{ $ref: '#/$defs/Kind' }, { type: 'null' }] } } },
];
const anyJson = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.constantFrom('k', 'o', 'x', 1, null, true), fc.array(tie('value'), { maxLength: 3 }), tie('object')),
  object: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd', 'id', 'tags', 'kind', 'n', 'list', 'opt', 'label', 'children', 'meta', 'deep', 'x', 'obj', 'arr', 'alias', 'extra', 'z'), tie('value'), { maxKeys: 6 }),
})).value;

/** The compiled shaper gives what the interpretive one gives, and the same reference exactly where that one changed nothing. */
function expectOracle(schema: SchemaNode, input: unknown): void {
  const expected = interpretiveShape(structuredClone(input), schema, oracleResolve);
  const out = shape(input, schema, oracleResolve);
  expectIs(JSON.stringify(out), JSON.stringify(expected));
  expectIs(out === input, JSON.stringify(expected) === JSON.stringify(input) && interpretiveShape(input, schema, oracleResolve) === input);
}

test('the compiled shaper gives what the interpretive one gives, on every schema shape and any JSON value', () => {
  fc.assert(
    fc.property(fc.constantFrom(...ORACLE_SCHEMAS.keys()), anyJson, (index, input) => expectOracle(ORACLE_SCHEMAS[index] as SchemaNode, input)),
    { numRuns: 500 },
  );
});

test('a combinator below an object or an array shapes its members as the interpretive shaper does', () => {
  const member = fc.oneof(anyJson, fc.constantFrom<unknown>({ kind: 'k', n: 1 }, { n: 1, kind: 'k' }, { kind: 'o', list: [], opt: null }));
  const inputs = [fc.array(member, { maxLength: 3 }), fc.record({ a: member }, { requiredKeys: [] })];
  for (const schema of NESTED_COMBINATORS) {
    fc.assert(fc.property(fc.oneof(...inputs), (input) => expectOracle(schema, input)), { numRuns: 150 });
  }
});

test('a deeply recursive value is cut at the nesting limit as before, and a fresh default is never shared', () => {
  let deep: Record<string, unknown> = { children: [], meta: { deep: { x: 1 } } };
  for (let i = 0; i < 100; i++) deep = { children: [deep], meta: { deep: {} } };
  const tree: SchemaNode = { $ref: '#/$defs/Tree' };
  expect(JSON.stringify(shape(deep, tree, oracleResolve))).toBe(JSON.stringify(interpretiveShape(deep, tree, oracleResolve)));
  const defaults: SchemaNode = { $ref: '#/$defs/Defaults' };
  const first = shape({}, defaults, oracleResolve) as { obj: { a: number[] }; arr: string[] };
  const second = shape({}, defaults, oracleResolve) as { obj: { a: number[] }; arr: string[] };
  expect(first).toEqual({ obj: { a: [1] }, arr: ['x'], alias: { kind: 'k', n: 3 } });
  expect(first.obj).not.toBe(second.obj);
  expect(first.arr).not.toBe(second.arr);
});

test('a free-form schema (a map of JSON values, recursive or not) gives every value back as the same reference', () => {
  const defs: Record<string, SchemaNode> = {
    JsonValue: {},
    Json: { anyOf: [{ type: 'string' }, { type: 'array', items: { $ref: '#/$defs/Json' } }, { type: 'object', additionalProperties: { $ref: '#/$defs/Json' } }] },
  };
  const at = (ref: string): SchemaNode | undefined => defs[ref.replace('#/$defs/', '')];
  for (const schema of [{ type: 'array', items: { type: 'object', additionalProperties: { $ref: '#/$defs/JsonValue' } } }, { $ref: '#/$defs/Json' }] as SchemaNode[]) {
    fc.assert(fc.property(anyJson, (input) => expectIs(shape(input, schema, at), input)), { numRuns: 200 });
  }
  // One declared property anywhere below makes it shape again (here: a closed model inside the recursion).
  defs['Json'] = { anyOf: [{ type: 'string' }, { type: 'object', additionalProperties: false, properties: { a: { $ref: '#/$defs/Json' } } }] };
  expect(shape({ b: 1 }, { $ref: '#/$defs/Json' }, (ref) => defs[ref.replace('#/$defs/', '')])).toEqual({});
});
