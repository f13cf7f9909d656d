import * as fc from 'fast-check';
import { generateSync } from 'json-schema-faker';
import { codePointLength, patternRegExp } from './patternRegExp.js';
import { simplePatternArbitrary } from './simplePattern.js';

/**
 * Strings matching a `pattern`. An anchored sequence of literals and classes (most identifier and encoding
 * patterns) is built from strings of its classes' characters (simplePattern.ts). Otherwise fast-check's
 * `stringMatching`, which shrinks but does not know lookarounds; for those, json-schema-faker's regex generator is
 * driven by a shrinkable integer seed instead. Callers check the result against the schema's constraints, so a
 * generator weakness shows as a filter error, never as an invalid value.
 */
export function patternArbitrary(pattern: string, maxLength: number | undefined): fc.Arbitrary<string> | undefined {
  // Building a stringMatching arbitrary is costly (fast-check precomputes bias slices); arbitraries are immutable.
  const key = `${maxLength ?? ''}/${pattern}`;
  if (!arbitraries.has(key)) arbitraries.set(key, createPatternArbitrary(pattern, maxLength));
  return arbitraries.get(key);
}

const arbitraries = new Map<string, fc.Arbitrary<string> | undefined>();

function createPatternArbitrary(pattern: string, maxLength: number | undefined): fc.Arbitrary<string> | undefined {
  const regex = patternRegExp(pattern);
  if (regex === undefined) return undefined;
  const simple = simplePatternArbitrary(pattern, maxLength);
  if (simple) return simple;
  try {
    return fc.stringMatching(regex, maxLength === undefined ? {} : { maxLength });
  } catch {
    return fc
      .integer({ min: 1, max: 2 ** 31 - 1 })
      .map((seed) => String(generateSync({ type: 'string', pattern, ...(maxLength === undefined ? {} : { maxLength }) }, { seed })))
      .filter((s) => regex.test(s));
  }
}

/** A short, deterministic string matching `pattern` within the length bounds, or undefined if none was found. */
export function shortPatternMatch(pattern: string, accept: (text: string) => boolean, minLength = 0, maxLength?: number): string | undefined {
  const key = `${maxLength ?? ''}/${pattern}`;
  let samples = sampled.get(key);
  if (samples === undefined) {
    const arb = patternArbitrary(pattern, maxLength);
    // Shortest first, then in code-unit order: the first sample a caller accepts is its answer.
    samples = arb === undefined ? [] : fc.sample(arb, { seed: 0x5eed, numRuns: 60 }).sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
    sampled.set(key, samples);
  }
  return samples.find((s) => codePointLength(s) >= minLength && accept(s));
}

const sampled = new Map<string, string[]>();
