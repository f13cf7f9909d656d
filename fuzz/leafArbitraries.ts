import * as fc from 'fast-check';
import type { JsonValue } from '../core/index.js';
import { numberFits, numberRange, stringFits } from './flatChecks.js';
import type { FlatSchema } from './flatSchema.js';
import { formatArbitrary, knownStringFormat } from './formats.js';
import { patternArbitrary } from './patternStrings.js';

export type Leaf<T> = { arb: fc.Arbitrary<T> } | { never: string };

const FILTER_PATIENCE = 2000;

/** `arb.filter(predicate)` that fails loudly instead of looping forever when the predicate almost never holds. */
export function guardedFilter<T>(arb: fc.Arbitrary<T>, predicate: (value: T) => boolean, what: string): fc.Arbitrary<T> {
  let misses = 0;
  return arb.filter((value) => {
    if (predicate(value)) {
      misses = 0;
      return true;
    }
    if (++misses > FILTER_PATIENCE) {
      throw new Error(`fuzz: no value satisfying ${what} after ${FILTER_PATIENCE} attempts; the schema is unsatisfiable or too narrow for this generator`);
    }
    return false;
  });
}

const keyChars = 'abcdefghijklmnopqrstuvwxyz_';
/** Short identifier-like keys; never `__proto__`. */
export const plainKey = (): fc.Arbitrary<string> => fc.string({ unit: fc.constantFrom(...keyChars), minLength: 1, maxLength: 8 });

/** Any JSON value, kept small (the empty schema `{}` and `true`). */
export function anyJson(): fc.Arbitrary<JsonValue> {
  // Arbitraries are immutable: one letrec serves every schema that accepts anything (building it costs more than a draw).
  anyJsonArbitrary ??= fc.letrec<{ value: JsonValue }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', maxDepth: 2 },
      fc.constant(null),
      fc.boolean(),
      fc.integer({ min: -1000, max: 1000 }),
      fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map((n) => (Object.is(n, -0) ? 0 : n)),
      fc.string({ maxLength: 8 }),
      fc.array(tie('value'), { maxLength: 3 }),
      fc.dictionary(plainKey(), tie('value'), { maxKeys: 3, noNullPrototype: true }),
    ),
  })).value;
  return anyJsonArbitrary;
}

let anyJsonArbitrary: fc.Arbitrary<JsonValue> | undefined;

export function stringArbitrary(flat: FlatSchema, maxStringLength: number): Leaf<string> {
  const min = flat.minLength ?? 0;
  const max = flat.maxLength;
  if (max !== undefined && min > max) return { never: `minLength ${min} > maxLength ${max}` };
  const format = knownStringFormat(flat.formats);
  let arb: fc.Arbitrary<string> | undefined;
  if (format !== undefined) arb = formatArbitrary(format);
  else if (flat.patterns.length > 0) {
    arb = patternArbitrary(flat.patterns[0] as string, max);
    if (arb === undefined) return { never: `pattern ${JSON.stringify(flat.patterns[0])} is not a valid unicode regular expression` };
  }
  if (arb === undefined) return { arb: fc.string({ minLength: min, maxLength: Math.min(max ?? Infinity, Math.max(min, maxStringLength)) }) };
  return { arb: guardedFilter(arb, (s) => stringFits(flat, s), `string constraints ${describeString(flat)}`) };
}

function describeString(flat: FlatSchema): string {
  return JSON.stringify({ minLength: flat.minLength, maxLength: flat.maxLength, patterns: flat.patterns, formats: flat.formats });
}

const INT_SPAN = 2 ** 32;

export function integerArbitrary(flat: FlatSchema): Leaf<number> {
  const range = numberRange(flat, true);
  let lo = range.lo ?? (range.hi !== undefined ? Math.min(-(2 ** 31), range.hi - INT_SPAN) : -(2 ** 31));
  let hi = range.hi ?? Math.max(2 ** 31 - 1, lo + INT_SPAN);
  lo = Math.max(lo, Number.MIN_SAFE_INTEGER);
  hi = Math.min(hi, Number.MAX_SAFE_INTEGER);
  if (lo > hi) return { never: `no integer in [${String(range.lo)}, ${String(range.hi)}]` };
  const step = flat.multipleOf.length > 0 && flat.multipleOf.every(Number.isInteger) ? flat.multipleOf.reduce(lcm) : undefined;
  if (step !== undefined) {
    const kLo = Math.ceil(lo / step);
    const kHi = Math.floor(hi / step);
    if (kLo > kHi) return { never: `no multiple of ${step} in [${lo}, ${hi}]` };
    return { arb: fc.integer({ min: kLo, max: kHi }).map((k) => (k * step === 0 ? 0 : k * step)) };
  }
  const arb = fc.integer({ min: lo, max: hi });
  if (flat.multipleOf.length === 0) return { arb };
  return { arb: guardedFilter(arb, (n) => numberFits(flat, n, true), `multipleOf ${flat.multipleOf.join(', ')}`) };
}

export function numberArbitrary(flat: FlatSchema): Leaf<number> {
  const range = numberRange(flat, false);
  if (range.integerFormat) return integerArbitrary(flat);
  const lo = range.lo ?? -Number.MAX_VALUE;
  const hi = range.hi ?? Number.MAX_VALUE;
  if (lo > hi || (lo === hi && (range.loExcluded || range.hiExcluded))) return { never: `no number in the range ${JSON.stringify(range)}` };
  const divisor = flat.multipleOf[0];
  if (divisor !== undefined) {
    const kLo = Math.ceil(Math.max(lo, -1e9) / divisor);
    const kHi = Math.floor(Math.min(hi, 1e9) / divisor);
    if (kLo > kHi) return { never: `no multiple of ${divisor} in the range ${JSON.stringify(range)}` };
    const multiples = fc.integer({ min: kLo, max: kHi }).map((k) => cleanNumber(Number.parseFloat((k * divisor).toPrecision(12))));
    return { arb: guardedFilter(multiples, (n) => numberFits(flat, n, false), `multipleOf ${flat.multipleOf.join(', ')}`) };
  }
  const doubles = fc.double({ min: lo, max: hi, minExcluded: range.loExcluded, maxExcluded: range.hiExcluded, noNaN: true, noDefaultInfinity: true }).map(cleanNumber);
  const integers = integerArbitrary(flat);
  return { arb: 'arb' in integers ? fc.oneof(integers.arb, doubles) : doubles };
}

function cleanNumber(n: number): number {
  return Object.is(n, -0) ? 0 : n;
}

function gcd(a: number, b: number): number {
  return b === 0 ? Math.abs(a) : gcd(b, a % b);
}

function lcm(a: number, b: number): number {
  return (a / gcd(a, b)) * b;
}
