import { expect, test } from './helpers/test.js';
import { expectIs } from './helpers/fastExpect.js';
import * as fc from 'fast-check';
import { simplePatternArbitrary, simplePatternPieces } from '../../fuzz/simplePattern.js';

// Pattern sources built from the grammar the fast path reads: literals (some escaped), classes of characters,
// ranges and class escapes (a `-` first or last is a literal), each with an optional quantifier.
const literal = fc.constantFrom('0', 'x', 'A', '_', ':', ',', 'é', '\\.', '\\/', '\\$', '\\[', '\\d', '\\w');
const classItem = fc.constantFrom('a-f', '0-9', 'A-HJ-N', 'x', '_', '\\d', '\\w', '\\-', '\\]', '.', '$', 'à-å', ' ');
const klass = fc.tuple(fc.boolean(), fc.array(classItem, { minLength: 1, maxLength: 4 }), fc.boolean()).map(([leadingDash, items, trailingDash]) => `[${leadingDash ? '-' : ''}${items.join('')}${trailingDash ? '-' : ''}]`);
const quantifier = fc.oneof(
  fc.constantFrom('', '', '*', '+', '?'),
  fc.nat(12).map((n) => `{${n}}`),
  fc.tuple(fc.nat(6), fc.nat(6)).map(([min, extra]) => `{${min},${min + extra}}`),
  fc.nat(6).map((min) => `{${min},}`),
);
const pattern = fc.array(fc.tuple(fc.oneof(literal, klass), quantifier), { minLength: 1, maxLength: 5 }).map((pieces) => `^${pieces.map(([atom, q]) => atom + q).join('')}$`);

test('every string drawn for a simple pattern matches it and keeps within the length limit', () => {
  fc.assert(
    fc.property(pattern, fc.option(fc.nat(40), { nil: undefined }), fc.nat(), (source, maxLength, seed) => {
      const pieces = simplePatternPieces(source);
      expectIs(pieces !== undefined, true, `${source} is simple`);
      const arbitrary = simplePatternArbitrary(source, maxLength);
      const shortest = (pieces ?? []).reduce((sum, piece) => sum + piece.min, 0);
      if (maxLength !== undefined && shortest > maxLength) return expectIs(arbitrary, undefined);
      expectIs(arbitrary !== undefined, true, `${source} has an arbitrary within ${String(maxLength)}`);
      const regex = new RegExp(source, 'u');
      for (const text of fc.sample(arbitrary as fc.Arbitrary<string>, { seed, numRuns: 20 })) {
        expectIs(regex.test(text), true, `${JSON.stringify(text)} against ${source}`);
        if (maxLength !== undefined) expectIs(text.length <= maxLength, true, `${JSON.stringify(text)} within ${maxLength}`);
      }
    }),
    { numRuns: 300 },
  );
});

test('every character a class names is drawn, and none other', () => {
  const drawn = new Set(fc.sample(simplePatternArbitrary('^[0-7][0-9A-HJKMNP-TV-Z]{25}$', undefined) as fc.Arbitrary<string>, { seed: 7, numRuns: 300 }).join(''));
  expect([...drawn].sort().join('')).toBe('0123456789ABCDEFGHJKMNPQRSTVWXYZ');
  const hex = new Set(fc.sample(simplePatternArbitrary('^0x[a-fA-F\\d]+$', undefined) as fc.Arbitrary<string>, { seed: 7, numRuns: 300 }).map((text) => text.slice(2)).join(''));
  expect([...hex].sort().join('')).toBe('0123456789ABCDEFabcdef');
});

test('real identifier and encoding patterns take the fast path; lengths follow their quantifiers', () => {
  const lengths = (source: string, maxLength?: number): Set<number> =>
    new Set(fc.sample(simplePatternArbitrary(source, maxLength) as fc.Arbitrary<string>, { seed: 3, numRuns: 200 }).map((text) => text.length));
  expect(lengths('^0x[0-9a-f]{64}$')).toEqual(new Set([66]));
  expect([...lengths('^0x[0-9a-f]{0,64}$')].every((n) => n >= 2 && n <= 66)).toBe(true);
  expect(lengths('^0x[0-9a-f]{0,64}$').size).toBeGreaterThan(5);
  expect(Math.max(...lengths('^[a-z0-9][a-z0-9_-]*$', 16))).toBeLessThanOrEqual(16);
  expect(Math.min(...lengths('^[a-z0-9][a-z0-9_-]*$'))).toBe(1);
  expect(lengths('^0x2$')).toEqual(new Set([3]));
});

test('patterns beyond literals and classes are left to the general generator', () => {
  for (const source of [
    '^0x([1-9a-f]+[0-9a-f]*|0)$',
    '^0x([0-9a-fA-F]?){1,2}$',
    '^a|b$',
    '0x[0-9a-f]+',
    '^0x[0-9a-f]+',
    '[0-9]+$',
    '^[^a-z]+$',
    '^.+$',
    '^\\s*$',
    '^\\u0041$',
    '^(?=a)a$',
    '^a+?$',
    '^[z-a]$',
    '^[\\u0000-\\uffff]$',
    '^a{3,1}$',
    '^a{,2}$',
    '^[a-z]\\$',
    '^😀$',
    '^[]$',
    '^a\\-b$',
    '^[\\d-z]$',
  ]) {
    expect(simplePatternPieces(source), source).toBeUndefined();
  }
});

test('a length limit below the shortest match leaves the pattern to the general generator', () => {
  expect(simplePatternArbitrary('^0x[0-9a-f]{64}$', 10)).toBeUndefined();
  expect(simplePatternArbitrary('^0x[0-9a-f]{64}$', 66)).toBeDefined();
});
