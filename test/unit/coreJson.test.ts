import { expect, test } from './helpers/test.js';
import { expectIs } from './helpers/fastExpect.js';
import * as fc from 'fast-check';
import { canonicalJson, jsonEqual } from '../../core/canonicalJson.js';
import { cloneJson, defineKey, editAt, isJsonObject, jsonTextWith, type JsonPath, type JsonValue, valueAt } from '../../core/json.js';
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
      expectIs(canonicalJson(shuffled), canonicalJson(value));
      expectIs(jsonEqual(shuffled, value), true);
      expectIs(jsonEqual(JSON.parse(canonicalJson(value)), value), true);
    }),
  );
  fc.assert(fc.property(json, json, (a, b) => expectIs(jsonEqual(a, b), canonicalJson(a) === canonicalJson(b))));
  expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(true);
  expect(jsonEqual([1, 2], [2, 1])).toBe(false);
  expect(jsonEqual(1, '1')).toBe(false);
  expect(jsonEqual({}, [])).toBe(false);
});

/** editAt as it was written first: a deep copy of the whole value, then the edit in place. */
function editAtByDeepCopy(root: JsonValue, path: JsonPath, edit: (current: JsonValue | undefined) => JsonValue | undefined): JsonValue {
  const copy = cloneJson(root);
  if (path.length === 0) return edit(copy) ?? null;
  const parent = valueAt(copy, path.slice(0, -1));
  const last = path[path.length - 1] as string | number;
  if (Array.isArray(parent) && typeof last === 'number') {
    const next = edit(parent[last]);
    if (next === undefined) parent.splice(last, 1);
    else parent[last] = next;
  } else if (isJsonObject(parent) && typeof last === 'string') {
    const next = edit(Object.hasOwn(parent, last) ? parent[last] : undefined);
    if (next === undefined) delete parent[last];
    else defineKey(parent, last, next);
  } else {
    throw new Error('no such path');
  }
  return copy;
}

/** Paths into a value (every node), and a few that go nowhere. */
function pathsOf(value: JsonValue, at: Array<string | number> = []): Array<Array<string | number>> {
  const out: Array<Array<string | number>> = [at, [...at, 'cg_missing'], [...at, 7]];
  if (Array.isArray(value)) value.forEach((item, index) => out.push(...pathsOf(item, [...at, index])));
  else if (isJsonObject(value)) for (const [key, item] of Object.entries(value)) out.push(...pathsOf(item, [...at, key]));
  return out;
}

test('editAt gives what a deep copy edited in place gives, and leaves the original as it was', () => {
  const keyed = fc.dictionary(fc.constantFrom('a', 'b', '__proto__', 'constructor', '0', ''), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
  const value = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.array(keyed, { maxLength: 3 }), keyed) as fc.Arbitrary<JsonValue>;
  const edits: Array<(current: JsonValue | undefined) => JsonValue | undefined> = [
    () => undefined,
    () => 'replaced',
    (current) => (isJsonObject(current) ? { ...current, cg_added: 1 } : [current ?? null]),
  ];
  fc.assert(
    fc.property(value, fc.nat(), fc.nat(edits.length - 1), (root, pick, which) => {
      const paths = pathsOf(root);
      const path = paths[pick % paths.length] as Array<string | number>;
      const edit = edits[which] as (current: JsonValue | undefined) => JsonValue | undefined;
      const before = JSON.stringify(root);
      let expected: JsonValue | Error;
      try {
        expected = editAtByDeepCopy(root, path, edit);
      } catch (error) {
        expected = error as Error;
      }
      if (expected instanceof Error) expect(() => editAt(root, path, edit)).toThrow(/does not exist/);
      else expectIs(JSON.stringify(editAt(root, path, edit)), JSON.stringify(expected));
      expectIs(JSON.stringify(root), before);
    }),
    { numRuns: 300 },
  );
});

test('a pointer that does not resolve names the step where it stopped', () => {
  const document = { a: { 'b/c': [10, { d: null }] } };
  expect(resolvePointer(document, '/a/b~1c/1/d')).toEqual({ found: true, value: null });
  expect(resolvePointer(document, '/a/x')).toEqual({ found: false, error: '/a/x: no member "x"' });
  expect(resolvePointer(document, '/a/b~1c/2')).toEqual({ found: false, error: '/a/b~1c/2: no array item "2"' });
  expect(resolvePointer(document, '/a/b~1c/1/d/e')).toEqual({ found: false, error: '/a/b~1c/1/d/e: "e" steps into a null' });
  expect(formatPointer(['plain', 7, 'a~b/c'])).toBe('/plain/7/a~0b~1c');
});

test('jsonTextWith gives JSON.stringify\'s text for any value, the known string included wherever it occurs', () => {
  const known = { value: 'k'.repeat(300), text: JSON.stringify('k'.repeat(300)) };
  const odd = fc.constantFrom<unknown>(undefined, () => 1, Symbol('s'), Number.NaN, -0, Infinity, new Date(0), new String('boxed'), { toJSON: () => 'custom' }, [1, , 3], Object.create(null), known.value, 'k'.repeat(300), 'k'.repeat(299));
  const value = fc.letrec<{ node: unknown }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      fc.jsonValue({ maxDepth: 1 }),
      odd,
      fc.array(tie('node'), { maxLength: 4 }),
      fc.dictionary(fc.constantFrom('a', '__proto__', 'constructor', '1', 'é'), tie('node'), { maxKeys: 4 }),
    ),
  })).node;
  fc.assert(fc.property(value, (v) => expectIs(jsonTextWith(v, known), JSON.stringify(v))), { numRuns: 500 });
});
