import * as fc from 'fast-check';
import { canonicalJson, cloneJson, defineKey, type JsonSchema, type JsonValue } from '../core/index.js';
import { expandSchema } from './expandSchema.js';
import { numberFits, numberRange, shallowFits, stringFits } from './flatChecks.js';
import { type FlatSchema, inferTypes, isEmptySchema, type JsonType, matchingPatterns, schemaForKey } from './flatSchema.js';
import { formatSample, knownStringFormat } from './formats.js';
import { arbitraryFromSchema, resolveOptions, type ResolvedOptions, type SchemaArbitraryOptions, UnsatisfiableSchemaError } from './fromSchema.js';
import { shortPatternMatch } from './patternStrings.js';

type Mode = 'minimal' | 'rich';
type Outcome = { value: JsonValue } | { fail: 'exhausted' | 'never'; reasons: string[] };

/**
 * The smallest deterministic valid value: required keys only, a valid `default` where there is one, otherwise
 * the shortest value (null before false before 0 before "" before [] before {}). Recursion is never entered twice,
 * so this also proves that a finite value exists; throws {@link UnsatisfiableSchemaError} when none does.
 */
export function minimalValue(schema: JsonSchema, options: SchemaArbitraryOptions): JsonValue {
  const outcome = walk(schema, resolveOptions(options), [], 'minimal');
  if ('value' in outcome) return outcome.value;
  throw new UnsatisfiableSchemaError(outcome.reasons);
}

/**
 * A deterministic valid value with every optional key populated at least once (non-null branches preferred,
 * non-null defaults kept, arrays with one item, maps with one entry), down to `maxDepth` recursion.
 * This is "every key a client may send".
 */
export function allOptionalValue(schema: JsonSchema, options: SchemaArbitraryOptions): JsonValue {
  const resolved = resolveOptions(options);
  const outcome = walk(schema, resolved, [], 'rich');
  if ('value' in outcome) return outcome.value;
  return minimalValue(schema, options);
}

function walk(schema: JsonSchema, options: ResolvedOptions, refStack: readonly string[], mode: Mode): Outcome {
  if (isEmptySchema(schema)) return { value: mode === 'minimal' ? null : {} };
  const expansion = expandSchema(schema, { resolver: options.resolver, maxDepth: mode === 'minimal' ? 0 : options.maxDepth }, refStack);
  const reasons = [...expansion.dropped];
  let exhausted = expansion.exhausted;
  const found: JsonValue[] = [];
  let ambiguous = false;
  for (const alternative of expansion.alternatives) {
    const outcome = walkFlat(alternative.flat, options, alternative.refStack, mode);
    if (!('value' in outcome)) {
      reasons.push(...outcome.reasons);
      exhausted ||= outcome.fail === 'exhausted';
    } else if (!expansion.exclusive || options.check.accepts(schema, outcome.value)) found.push(outcome.value);
    else ambiguous = true;
  }
  if (found.length === 0 && !exhausted) found.push(...sampleValid(schema, options));
  if (ambiguous && found.length === 0) reasons.push('every candidate matches several oneOf branches');
  const best = pick(found, mode);
  return best === undefined ? { fail: exhausted ? 'exhausted' : 'never', reasons } : { value: best };
}

const sampling = new Set<JsonSchema>();

/**
 * Last resort when the deterministic candidates are all rejected (a `oneOf` whose simplest candidates match
 * several branches, a `not` that excludes them): valid values sampled from the arbitrary with a fixed seed.
 */
function sampleValid(schema: JsonSchema, options: ResolvedOptions): JsonValue[] {
  if (sampling.has(schema)) return [];
  sampling.add(schema);
  try {
    return fc.sample(arbitraryFromSchema(schema, options), { seed: 11, numRuns: 50 }).filter((v) => options.check.accepts(schema, v));
  } catch {
    return [];
  } finally {
    sampling.delete(schema);
  }
}

function pick(values: JsonValue[], mode: Mode): JsonValue | undefined {
  let best: JsonValue | undefined;
  let bestScore = 0;
  for (const value of values) {
    const size = canonicalJson(value).length;
    const score = mode === 'minimal' ? -size : (value === null ? 0 : 1e9) + size;
    if (best === undefined || score > bestScore) [best, bestScore] = [value, score];
  }
  return best;
}

const MINIMAL_ORDER: readonly JsonType[] = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'];
const RICH_ORDER: readonly JsonType[] = ['object', 'array', 'string', 'integer', 'number', 'boolean', 'null'];

function walkFlat(flat: FlatSchema, options: ResolvedOptions, refStack: readonly string[], mode: Mode): Outcome {
  const fallback = flat.default?.value;
  const useDefault = fallback !== undefined && isScalar(fallback) && (mode === 'minimal' || fallback !== null) && fits(flat, fallback, options);
  if (useDefault) return { value: cloneJson(fallback) };
  if (flat.enum) {
    const value = flat.enum.find((v) => fits(flat, v, options));
    return value === undefined ? { fail: 'never', reasons: ['no enum/const value satisfies the other keywords'] } : { value: cloneJson(value) };
  }
  const declared = flat.types ?? inferTypes(flat) ?? MINIMAL_ORDER;
  const reasons: string[] = [];
  let exhausted = false;
  for (const type of mode === 'minimal' ? MINIMAL_ORDER : RICH_ORDER) {
    if (!declared.includes(type) && !(type === 'integer' && declared.includes('number'))) continue;
    const outcome = walkType(type, flat, options, refStack, mode);
    if ('value' in outcome && flat.not.every((n) => !options.check.accepts(n, outcome.value))) return outcome;
    if (!('value' in outcome)) {
      reasons.push(...outcome.reasons);
      exhausted ||= outcome.fail === 'exhausted';
    }
  }
  return { fail: exhausted ? 'exhausted' : 'never', reasons };
}

function fits(flat: FlatSchema, value: JsonValue, options: ResolvedOptions): boolean {
  return shallowFits(flat, value) && flat.not.every((n) => !options.check.accepts(n, value));
}

/** Only scalar defaults are taken as they are: a structured default may hide invalid nested parts. */
function isScalar(value: JsonValue): boolean {
  return value === null || typeof value !== 'object';
}

function walkType(type: JsonType, flat: FlatSchema, options: ResolvedOptions, refStack: readonly string[], mode: Mode): Outcome {
  const found = (value: JsonValue | undefined, what: string): Outcome => (value === undefined ? { fail: 'never', reasons: [what] } : { value });
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
    case 'array':
      return walkArray(flat, options, refStack, mode);
    case 'object':
      return walkObject(flat, options, refStack, mode);
    default:
      return { fail: 'never', reasons: [`unknown type ${JSON.stringify(type)}`] };
  }
}

function pickNumber(flat: FlatSchema, integer: boolean, mode: Mode): number | undefined {
  const range = numberRange(flat, integer);
  const candidates = mode === 'rich' ? [1, integer ? 2 : 1.5] : [0];
  const { lo, hi } = range;
  const step = flat.multipleOf[0];
  for (const bound of [lo, hi]) {
    if (bound === undefined) continue;
    candidates.push(bound, bound + 1, bound - 1);
    if (step !== undefined) candidates.push(Math.ceil(bound / step) * step, Math.floor(bound / step) * step, (Math.ceil(bound / step) + 1) * step, (Math.floor(bound / step) - 1) * step);
  }
  if (lo !== undefined && hi !== undefined) candidates.push((lo + hi) / 2, Math.round((lo + hi) / 2));
  const valid = candidates.map((n) => Number.parseFloat(n.toPrecision(15))).filter((n) => numberFits(flat, n, integer));
  if (mode === 'rich' && valid[0] !== undefined && candidates.slice(0, 2).includes(valid[0])) return valid[0];
  valid.sort((a, b) => Math.abs(a) - Math.abs(b) || a - b);
  return valid[0];
}

function pickString(flat: FlatSchema, mode: Mode): string | undefined {
  const format = knownStringFormat(flat.formats);
  const accept = (s: string) => stringFits(flat, s);
  if (format !== undefined) {
    const sample = formatSample(format, mode);
    if (sample !== undefined && accept(sample)) return sample;
  }
  const pattern = flat.patterns[0];
  if (pattern !== undefined) return shortPatternMatch(pattern, accept, flat.minLength ?? 0, flat.maxLength);
  const min = flat.minLength ?? 0;
  const base = mode === 'rich' ? 'example' : '';
  const text = base.length >= min ? base.slice(0, flat.maxLength ?? base.length) : base + 'x'.repeat(min - base.length);
  return accept(text) ? text : undefined;
}

function walkArray(flat: FlatSchema, options: ResolvedOptions, refStack: readonly string[], mode: Mode): Outcome {
  const min = flat.minItems ?? 0;
  const max = flat.maxItems ?? Infinity;
  const length = Math.min(max, mode === 'rich' ? Math.max(min, flat.prefixItems.length, 1) : min);
  if (min > max) return { fail: 'never', reasons: [`minItems ${min} > maxItems ${max}`] };
  const items: JsonValue[] = [];
  for (let i = 0; i < length; i++) {
    const schema = flat.prefixItems[i] ?? flat.items ?? true;
    const outcome = walk(schema, options, refStack, mode);
    if (!('value' in outcome)) return items.length >= min ? { value: items } : outcome;
    items.push(outcome.value);
  }
  if (flat.uniqueItems && new Set(items.map(canonicalJson)).size < items.length) return distinctItems(flat, options, items.length, min);
  return { value: items };
}

/** uniqueItems with several items: distinct values sampled deterministically from the item schema. */
function distinctItems(flat: FlatSchema, options: ResolvedOptions, length: number, min: number): Outcome {
  const schema = flat.items ?? true;
  const seen = new Map<string, JsonValue>();
  try {
    for (const value of fc.sample(arbitraryFromSchema(schema, options), { seed: 7, numRuns: 200 })) seen.set(canonicalJson(value), value);
  } catch (error) {
    return { fail: 'never', reasons: [(error as Error).message] };
  }
  const values = [...seen.values()].sort((a, b) => canonicalJson(a).length - canonicalJson(b).length).slice(0, length);
  return values.length >= min ? { value: values } : { fail: 'never', reasons: [`could not find ${min} distinct items for uniqueItems`] };
}

function walkObject(flat: FlatSchema, options: ResolvedOptions, refStack: readonly string[], mode: Mode): Outcome {
  const out: Record<string, JsonValue> = {};
  const keys = [...flat.properties.keys(), ...[...flat.required].filter((k) => !flat.properties.has(k))];
  const optional: string[] = [];
  for (const key of keys) {
    if (!flat.required.has(key)) {
      optional.push(key);
      if (mode === 'minimal') continue;
    }
    const outcome = walk(schemaForKey(flat, key), options, refStack, mode);
    if ('value' in outcome) defineKey(out, key, outcome.value);
    else if (flat.required.has(key)) return { fail: outcome.fail, reasons: outcome.reasons.map((r) => `${key}: ${r}`) };
  }
  if (mode === 'rich') addOpenEntries(flat, options, refStack, out);
  for (const key of optional) {
    if (Object.keys(out).length >= (flat.minProperties ?? 0)) break;
    const outcome = walk(schemaForKey(flat, key), options, refStack, mode);
    if ('value' in outcome) defineKey(out, key, outcome.value);
  }
  const count = Object.keys(out).length;
  if (count < (flat.minProperties ?? 0) || count > (flat.maxProperties ?? Infinity)) return { fail: 'never', reasons: ['minProperties/maxProperties cannot be met with the declared keys'] };
  return { value: out };
}

/** One key per pattern property, and one entry for a map (`additionalProperties` schema without declared keys). */
function addOpenEntries(flat: FlatSchema, options: ResolvedOptions, refStack: readonly string[], out: Record<string, JsonValue>): void {
  const free = (key: string) => !Object.hasOwn(out, key) && !flat.properties.has(key) && !flat.forbidden.has(key) && key !== '__proto__';
  for (const [pattern, schema] of flat.patternProperties) {
    const key = shortPatternMatch(pattern, (k) => free(k) && matchingPatterns(flat, k).length === 1, 1, 16);
    const outcome = key === undefined ? undefined : walk(schema, options, refStack, 'rich');
    if (key !== undefined && outcome && 'value' in outcome) defineKey(out, key, outcome.value);
  }
  const additional = flat.additional;
  if (flat.properties.size === 0 && flat.patternProperties.size === 0 && additional !== undefined && additional !== false && !isEmptySchema(additional)) {
    const outcome = walk(additional, options, refStack, 'rich');
    if ('value' in outcome && free('key')) defineKey(out, 'key', outcome.value);
  }
}
