import * as fc from 'fast-check';
import { canonicalJson, cloneJson, defineKey, type JsonSchema, type JsonType, type JsonValue } from '../core/index.js';
import { numberRange, shallowFits } from './flatChecks.js';
import { type FlatSchema, inferTypes, matchingPatterns } from './flatSchema.js';
import { shortPatternMatch } from './patternStrings.js';
import type { ResolvedOptions } from './schemaOptions.js';
import type { SchemaCheck } from './schemaCheck.js';
import { type ArrayPlan, Failures, never, type ObjectPlan, type SchemaInterpreter, type Walked } from './schemaWalker.js';
import { pickNumber, pickString, type WitnessMode } from './witnessLeaves.js';

/** The arbitrary of a schema, sampled where the witness's own candidates fall short. */
export type ArbitraryOf = (schema: JsonSchema) => fc.Arbitrary<JsonValue>;

const MINIMAL_ORDER: readonly JsonType[] = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'];
const RICH_ORDER: readonly JsonType[] = ['object', 'array', 'string', 'integer', 'number', 'boolean', 'null'];

/**
 * Walks a schema into one deterministic valid value. `minimal`: required keys only, a valid scalar default where
 * there is one, otherwise the shortest value (null before false before 0 before "" before [] before {}), and
 * recursion never entered twice, so a result proves a finite value exists. `rich`: every optional key, non-null
 * branches and defaults, one array item and one map entry, down to `maxDepth`.
 */
export function witnessInterpreter(options: ResolvedOptions, mode: WitnessMode, arbitraryOf: ArbitraryOf): SchemaInterpreter<JsonValue> {
  const check = options.check;
  const admits = (flat: FlatSchema, value: JsonValue) => flat.not.every((n) => !check.accepts(n, value));
  return {
    maxDepth: mode === 'minimal' ? 0 : options.maxDepth,
    anything: () => (mode === 'minimal' ? null : {}),
    alternatives: (schema, candidates, failures, exclusive) => {
      const found = exclusive ? candidates.filter((v) => check.accepts(schema, v)) : candidates;
      const ambiguous = found.length < candidates.length;
      if (found.length === 0 && !failures.exhausted) found.push(...sampleValid(schema, check, arbitraryOf));
      if (ambiguous && found.length === 0) failures.reasons.push('every candidate matches several oneOf branches');
      const best = pick(found, mode);
      return best === undefined ? failures.result() : { value: best };
    },
    fixed: (flat) => {
      const fits = (value: JsonValue) => shallowFits(flat, value) && admits(flat, value);
      const fallback = flat.default?.value;
      if (fallback !== undefined && isScalar(fallback) && (mode === 'minimal' || fallback !== null) && fits(fallback)) return { value: cloneJson(fallback) };
      if (!flat.enum) return undefined;
      const value = flat.enum.find(fits);
      return value === undefined ? never('no enum/const value satisfies the other keywords') : { value: cloneJson(value) };
    },
    typeOrder: (flat) => {
      const declared: readonly string[] = flat.types ?? inferTypes(flat) ?? MINIMAL_ORDER;
      return (mode === 'minimal' ? MINIMAL_ORDER : RICH_ORDER).filter((type) => declared.includes(type) || (type === 'integer' && declared.includes('number')));
    },
    types: (flat, byType) => {
      const failures = new Failures();
      for (const walked of byType) {
        if (!('value' in walked)) failures.add(walked);
        else if (admits(flat, walked.value)) return walked;
      }
      return failures.result();
    },
    leaf: (type, flat) => {
      const found = (value: JsonValue | undefined, what: string): Walked<JsonValue> => (value === undefined ? never(what) : { value });
      switch (type) {
        case 'null':
          return { value: null };
        case 'boolean':
          return { value: mode === 'rich' };
        case 'integer':
        case 'number':
          return found(pickNumber(flat, type === 'integer', mode), `no ${type} satisfies ${JSON.stringify(numberRange(flat, type === 'integer'))}`);
        case 'string':
          return found(pickString(flat, mode), `no string satisfies the length/pattern/format keywords`);
      }
    },
    array: (plan) => witnessArray(plan, mode, arbitraryOf),
    object: (plan) => witnessObject(plan, mode),
  };
}

/** Only scalar defaults are taken as they are: a structured default may hide invalid nested parts. */
function isScalar(value: JsonValue): boolean {
  return value === null || typeof value !== 'object';
}

/** The length of a value's JSON text: key order does not change it, so the native serializer gives it. */
function textLength(value: JsonValue): number {
  return JSON.stringify(value).length;
}

function pick(values: JsonValue[], mode: WitnessMode): JsonValue | undefined {
  let best: JsonValue | undefined;
  let bestScore = 0;
  for (const value of values) {
    const size = textLength(value);
    const score = mode === 'minimal' ? -size : (value === null ? 0 : 1e9) + size;
    if (best === undefined || score > bestScore) [best, bestScore] = [value, score];
  }
  return best;
}

// Sampling a schema can walk the same schema again (the arbitrary falls back to the minimal value); this stops that.
const sampling = new Set<JsonSchema>();

/**
 * Last resort when the deterministic candidates are all rejected (a `oneOf` whose simplest candidates match
 * several branches, a `not` that excludes them): valid values sampled from the arbitrary with a fixed seed.
 */
function sampleValid(schema: JsonSchema, check: SchemaCheck, arbitraryOf: ArbitraryOf): JsonValue[] {
  if (sampling.has(schema)) return [];
  sampling.add(schema);
  try {
    return fc.sample(arbitraryOf(schema), { seed: 11, numRuns: 50 }).filter((v) => check.accepts(schema, v));
  } catch {
    return [];
  } finally {
    sampling.delete(schema);
  }
}

function witnessArray(plan: ArrayPlan<JsonValue>, mode: WitnessMode, arbitraryOf: ArbitraryOf): Walked<JsonValue> {
  const { flat, min, max } = plan;
  const length = Math.min(max, mode === 'rich' ? Math.max(min, flat.prefixItems.length, 1) : min);
  const items: JsonValue[] = [];
  for (let i = 0; i < length; i++) {
    const outcome = plan.item(i);
    if (!('value' in outcome)) return items.length >= min ? { value: items } : outcome;
    items.push(outcome.value);
  }
  if (flat.uniqueItems && new Set(items.map(canonicalJson)).size < items.length) return distinctItems(flat, arbitraryOf, items.length, min);
  return { value: items };
}

/** uniqueItems with several items: distinct values sampled deterministically from the item schema. */
function distinctItems(flat: FlatSchema, arbitraryOf: ArbitraryOf, length: number, min: number): Walked<JsonValue> {
  const seen = new Map<string, JsonValue>();
  try {
    for (const value of fc.sample(arbitraryOf(flat.items ?? true), { seed: 7, numRuns: 200 })) seen.set(canonicalJson(value), value);
  } catch (error) {
    return never((error as Error).message);
  }
  const values = [...seen.values()].sort((a, b) => textLength(a) - textLength(b)).slice(0, length);
  return values.length >= min ? { value: values } : never(`could not find ${min} distinct items for uniqueItems`);
}

function witnessObject(plan: ObjectPlan<JsonValue>, mode: WitnessMode): Walked<JsonValue> {
  const { flat } = plan;
  const out: Record<string, JsonValue> = {};
  const optional: string[] = [];
  for (const { key, required } of plan.keys) {
    if (!required) {
      optional.push(key);
      if (mode === 'minimal') continue;
    }
    const outcome = plan.member(key);
    if ('value' in outcome) defineKey(out, key, outcome.value);
    else if (required) return outcome;
  }
  if (mode === 'rich') addOpenEntries(plan, out);
  for (const key of optional) {
    if (Object.keys(out).length >= (flat.minProperties ?? 0)) break;
    const outcome = plan.member(key);
    if ('value' in outcome) defineKey(out, key, outcome.value);
  }
  const count = Object.keys(out).length;
  if (count < (flat.minProperties ?? 0) || count > (flat.maxProperties ?? Infinity)) return never('minProperties/maxProperties cannot be met with the declared keys');
  return { value: out };
}

/** One key per pattern property, and one entry for a map (`additionalProperties` schema without declared keys). */
function addOpenEntries(plan: ObjectPlan<JsonValue>, out: Record<string, JsonValue>): void {
  const { flat } = plan;
  const free = (key: string) => !Object.hasOwn(out, key) && !plan.taken(key) && key !== '__proto__';
  for (const [pattern, schema] of flat.patternProperties) {
    const key = shortPatternMatch(pattern, (k) => free(k) && matchingPatterns(flat, k).length === 1, 1, 16);
    const outcome = key === undefined ? undefined : plan.walk(schema);
    if (key !== undefined && outcome && 'value' in outcome) defineKey(out, key, outcome.value);
  }
  if (plan.isMap) {
    const outcome = plan.walk(flat.additional ?? true);
    if ('value' in outcome && free('key')) defineKey(out, 'key', outcome.value);
  }
}
