import { canonicalJson, type JsonSchema, type JsonValue } from '../../core/index.js';
import { expect, test } from './helpers/test.js';
import * as fc from 'fast-check';
import { allOptionalValue, arbitraryFromSchema, minimalValue, type Mutation, mutationsOf } from '../../fuzz/index.js';
import { keywordsOf } from './helpers/fuzzDocuments.js';
import { describeErrors, lawParams } from './helpers/fuzzLaws.js';
import { SYNTHETIC_NAMES, syntheticErrors, syntheticRef, syntheticResolver as resolver } from './helpers/fuzzSchemas.js';

function startingValues(schema: JsonSchema): JsonValue[] {
  return [minimalValue(schema, { resolver }), allOptionalValue(schema, { resolver }), ...fc.sample(arbitraryFromSchema(schema, { resolver }), lawParams(6))];
}

const summary = (mutations: Mutation[]) => mutations.map((m) => `${m.kind} ${m.dottedPath} ${m.expectedKeyword}`);

test('every mutation of every synthetic value is rejected by the schema, with the intended keyword', () => {
  let total = 0;
  const failures: string[] = [];
  for (const name of SYNTHETIC_NAMES) {
    const schema = syntheticRef(name);
    for (const value of startingValues(schema)) {
      for (const mutation of mutationsOf(schema, value, { resolver })) {
        const errors = syntheticErrors(schema, mutation.payload);
        if (!keywordsOf(errors).includes(mutation.expectedKeyword)) failures.push(`${name} ${mutation.description} ${JSON.stringify(mutation.payload)}: ${describeErrors(errors) || 'accepted'}`);
        total++;
      }
    }
  }
  expect(failures).toEqual([]);
  expect(total).toBeGreaterThan(300);
});

test('a params model gets the full catalogue: types, nulls, required keys, ranges, boundaries, enums, formats', () => {
  const schema = syntheticRef('CreateParams');
  const value = allOptionalValue(schema, { resolver });
  const found = summary(mutationsOf(schema, value, { resolver }));
  for (const expected of [
    'wrong-type  type',
    'missing-required kind required',
    'not-in-enum kind const',
    'wrong-type kind type',
    'wrong-type hidden type',
    'null-for-non-null hidden type',
    'not-in-enum mode enum',
    'boundary cols minimum',
    'boundary cols maximum',
    'out-of-range cols minimum',
    'out-of-range cols maximum',
    'boundary messages maxItems',
    'boundary messages.0.text minLength',
    'missing-required messages.0.role required',
    'not-in-enum messages.0.role enum',
    'wrong-type messages.0.role type',
    'boundary tags minItems',
    'boundary tags uniqueItems',
    'boundary tags.0 minLength',
    'pattern-mismatch started format',
    'wrong-type info.usage.total type',
    'boundary info.usage.total minimum',
  ]) {
    expect(found, expected).toContain(expected);
  }
  expect(found.filter((m) => m.startsWith('null-for-non-null profile') || m.startsWith('null-for-non-null cols') || m.startsWith('null-for-non-null info.usage '))).toEqual([]);
});

test('no wrong-type where every type is admitted, no null where null is admitted', () => {
  expect(mutationsOf({}, { a: [1, 'x'] }, { resolver })).toEqual([]);
  expect(mutationsOf({ anyOf: [{ type: 'string' }, {}] }, 'x', { resolver })).toEqual([]);
  expect(summary(mutationsOf(syntheticRef('NullableString'), 'x', { resolver }))).toEqual(['wrong-type  type']);
  expect(summary(mutationsOf(syntheticRef('TypeArray'), 'x', { resolver }))).toEqual(['wrong-type  type']);
  expect(summary(mutationsOf(syntheticRef('Mixed'), 'a', { resolver }))).toEqual(['wrong-type  enum', 'not-in-enum  enum']);
});

test('boundaries sit just outside each constraint', () => {
  const payloads = (name: string, value: JsonValue) => Object.fromEntries(mutationsOf(syntheticRef(name), value, { resolver }).map((m) => [`${m.kind} ${m.expectedKeyword}`, m.payload]));
  expect(payloads('BoundedString', 'abc')).toMatchObject({ 'boundary minLength': 'a', 'boundary maxLength': 'abcxxx' });
  expect(payloads('SteppedInteger', 3)).toMatchObject({ 'boundary minimum': -4, 'boundary maximum': 41, 'out-of-range multipleOf': 4 });
  expect(payloads('OpenInterval', 0.5)).toMatchObject({ 'boundary exclusiveMinimum': 0, 'boundary exclusiveMaximum': 1 });
  const belowMinimum = payloads('BoundedNumber', 2)['boundary minimum'] as number;
  expect(belowMinimum).toBeLessThan(1.5);
  expect(belowMinimum).toBeGreaterThan(1.49);
  expect(payloads('DistinctSmall', [1, 2])).toMatchObject({ 'boundary minItems': [1], 'boundary uniqueItems': [1, 2, 1], 'boundary maxItems': [1, 2, 1, 2, 1] });
  expect(payloads('Hex', '0xab')['pattern-mismatch pattern']).toBe('');
  expect(payloads('Fixed', 'fixed')['not-in-enum const']).toBe('cg_not_in_enum');
});

test('mutations are deterministic, in walk order, and de-duplicated', () => {
  const schema = syntheticRef('CreateParams');
  const value = allOptionalValue(schema, { resolver });
  const first = mutationsOf(schema, value, { resolver });
  expect(mutationsOf(schema, value, { resolver })).toEqual(first);
  const identities = first.map((m) => `${m.kind} ${m.dottedPath} ${canonicalJson(m.payload)}`);
  expect(new Set(identities).size).toBe(identities.length);
  const firstIndexOf = (prefix: string) => first.findIndex((m) => m.dottedPath.startsWith(prefix));
  expect(firstIndexOf('')).toBe(0);
  expect(firstIndexOf('messages.0')).toBeLessThan(firstIndexOf('tags'));
});

test('a starting value that does not validate is refused', () => {
  expect(() => mutationsOf(syntheticRef('CreateParams'), { kind: 'nope' }, { resolver })).toThrow(/does not validate/);
});
