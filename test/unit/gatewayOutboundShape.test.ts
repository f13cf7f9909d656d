import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { shape } from '../../gateway/core/contract/outboundShape.js';
import type { SchemaNode } from '../../gateway/core/contract/contractSet.js';

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
        expect(JSON.stringify(input)).toBe(before);
        const keys = Object.keys(out);
        const declared = keys.filter((key) => ['a', 'b', 'c', 'd'].includes(key));
        expect(declared).toEqual(['a', 'b', 'c', 'd'].filter((key) => declared.includes(key)));
        expect(keys.slice(0, declared.length)).toEqual(declared);
        // A required nullable field left out is filled with null (a required integer has no empty value to take).
        expect(keys).toContain('c');
        if (label === 'closed') expect(keys.every((key) => declared.includes(key))).toBe(true);
        else expect(keys.filter((key) => !declared.includes(key)).sort()).toEqual(Object.keys(input).filter((key) => !['a', 'b', 'c', 'd'].includes(key)).sort());
        // The nested closed model: its extra dropped, `tags` (a required list) filled, `id` kept only when sent.
        if (out['b'] !== undefined) expect(Object.keys(out['b'] as object)).toEqual('id' in (out['b'] as object) ? ['id', 'tags'] : ['tags']);
        // Shaping twice: the second pass finds nothing to change and returns the very same object.
        expect(shape(out, schema, resolve)).toBe(out);
        expect(shape(structuredClone(out), schema, resolve)).toEqual(out);
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
