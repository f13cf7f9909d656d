import { expect, test } from '@playwright/test';
import * as fc from 'fast-check';
import { canonicalJson, jsonEqual } from '../../core/canonicalJson.js';
import type { JsonValue } from '../../core/json.js';
import { formatFragment, formatPointer, parseFragment, parsePointer, resolveFragment, resolveLocalRef, resolvePointer } from '../../core/jsonPointer.js';

// RFC 6901 §5 and §6: the example document and every pointer the RFC lists, in both forms.
const RFC_DOCUMENT = { foo: ['bar', 'baz'], '': 0, 'a/b': 1, 'c%d': 2, 'e^f': 3, 'g|h': 4, 'i\\j': 5, 'k"l': 6, ' ': 7, 'm~n': 8 };
const RFC_POINTERS: Array<[string, string, unknown]> = [
  ['', '#', RFC_DOCUMENT],
  ['/foo', '#/foo', ['bar', 'baz']],
  ['/foo/0', '#/foo/0', 'bar'],
  ['/', '#/', 0],
  ['/a~1b', '#/a~1b', 1],
  ['/c%d', '#/c%25d', 2],
  ['/e^f', '#/e%5Ef', 3],
  ['/g|h', '#/g%7Ch', 4],
  ['/i\\j', '#/i%5Cj', 5],
  ['/k"l', '#/k%22l', 6],
  ['/ ', '#/%20', 7],
  ['/m~0n', '#/m~0n', 8],
];

test('every RFC 6901 example resolves, as a pointer and as a URI fragment', () => {
  for (const [pointer, fragment, expected] of RFC_POINTERS) {
    expect(resolvePointer(RFC_DOCUMENT, pointer), pointer).toEqual({ found: true, value: expected });
    expect(resolveFragment(RFC_DOCUMENT, fragment), fragment).toEqual({ found: true, value: expected });
  }
});

test('formatting is the inverse of parsing, for pointers and fragments', () => {
  for (const [pointer, fragment] of RFC_POINTERS) {
    const parsed = parsePointer(pointer);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) continue;
    expect(formatPointer(parsed.tokens)).toBe(pointer);
    expect(parseFragment(formatFragment(parsed.tokens))).toEqual(parsed);
    expect(parseFragment(fragment)).toEqual(parsed);
  }
  fc.assert(
    fc.property(fc.array(fc.string()), (tokens) => {
      const pointer = formatPointer(tokens);
      expect(parsePointer(pointer)).toEqual({ ok: true, tokens });
      expect(parseFragment(formatFragment(tokens))).toEqual({ ok: true, tokens });
    }),
  );
});

test('lookups use own properties only and never throw on malformed input', () => {
  expect(resolvePointer({}, '/constructor').found).toBe(false);
  expect(resolvePointer({}, '/__proto__').found).toBe(false);
  expect(resolveLocalRef({ a: {} }, '#/a/toString')).toBeUndefined();
  expect(parseFragment('#/bad%zz')).toMatchObject({ ok: false, error: expect.stringContaining('percent-escape') });
  expect(parsePointer('/a~2')).toMatchObject({ ok: false });
  expect(parsePointer('no-slash')).toMatchObject({ ok: false });
  expect(parseFragment('other.json#/a')).toMatchObject({ ok: false });
  // Array indexes: no leading zeros, no "-", nothing past the end.
  expect(resolvePointer({ a: [1, 2] }, '/a/01').found).toBe(false);
  expect(resolvePointer({ a: [1, 2] }, '/a/-').found).toBe(false);
  expect(resolvePointer({ a: [1, 2] }, '/a/2').found).toBe(false);
  expect(resolvePointer({ a: 'text' }, '/a/0')).toMatchObject({ found: false, error: expect.stringContaining('string') });
});

const json: fc.Arbitrary<JsonValue> = fc.jsonValue() as fc.Arbitrary<JsonValue>;

/** The same value with every object's keys in another order. */
function shuffleKeys(value: JsonValue, flip: boolean): JsonValue {
  if (Array.isArray(value)) return value.map((item) => shuffleKeys(item, !flip));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).map(([key, item]) => [key, shuffleKeys(item, !flip)] as const);
  return Object.fromEntries(flip ? entries.reverse() : entries);
}

test('canonical JSON and jsonEqual ignore key order and agree with each other', () => {
  fc.assert(
    fc.property(json, fc.boolean(), (value, flip) => {
      const shuffled = shuffleKeys(value, flip);
      expect(canonicalJson(shuffled)).toBe(canonicalJson(value));
      expect(jsonEqual(shuffled, value)).toBe(true);
      expect(jsonEqual(JSON.parse(canonicalJson(value)), value)).toBe(true);
    }),
  );
  fc.assert(fc.property(json, json, (a, b) => expect(jsonEqual(a, b)).toBe(canonicalJson(a) === canonicalJson(b))));
  expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(true);
  expect(jsonEqual([1, 2], [2, 1])).toBe(false);
  expect(jsonEqual(1, '1')).toBe(false);
  expect(jsonEqual({}, [])).toBe(false);
});
