import * as fc from 'fast-check';
import { canonicalJson, cloneJson, defineKey, type JsonSchema, type JsonValue, type SchemaResolver } from '../core/index.js';
import { expandSchema } from './expandSchema.js';
import { shallowFits } from './flatChecks.js';
import { type FlatSchema, inferTypes, isEmptySchema, type JsonType, matchingPatterns, schemaForKey } from './flatSchema.js';
import { anyJson, guardedFilter, integerArbitrary, numberArbitrary, plainKey, stringArbitrary } from './leafArbitraries.js';
import { minimalValue } from './minimalValue.js';
import { patternArbitrary } from './patternStrings.js';
import { schemaCheckFor, type SchemaCheck } from './schemaCheck.js';

export interface SchemaArbitraryOptions {
  resolver: SchemaResolver;
  /** How many times a recursive `$ref` may re-enter itself on one path (default 2); deeper, the smallest finite branch is taken. */
  maxDepth?: number;
  /** Longest generated array (default 3), also below a larger `maxItems`; a larger `minItems` wins. Boundaries are the mutations' job. */
  maxItems?: number;
  /** Longest plain string (default 12), also below a larger `maxLength`; `minLength`, patterns and formats decide their own lengths. */
  maxStringLength?: number;
  /** Optional properties: present at random (default), all present, or none. */
  optional?: 'random' | 'all' | 'none';
  /** Add a few undeclared keys where `additionalProperties` is true, absent or a schema (default false). */
  extraKeys?: boolean;
}

export type ResolvedOptions = Required<SchemaArbitraryOptions> & { check: SchemaCheck };

export function resolveOptions(options: SchemaArbitraryOptions): ResolvedOptions {
  return {
    resolver: options.resolver,
    maxDepth: options.maxDepth ?? 2,
    maxItems: options.maxItems ?? 3,
    maxStringLength: options.maxStringLength ?? 12,
    optional: options.optional ?? 'random',
    extraKeys: options.extraKeys ?? false,
    check: schemaCheckFor(options.resolver),
  };
}

/** The schema admits no value the generators can build (contradictory `allOf`, only infinite recursion, …). */
export class UnsatisfiableSchemaError extends Error {
  constructor(readonly reasons: readonly string[]) {
    super(`fuzz: the schema admits no finite value: ${reasons.length > 0 ? [...new Set(reasons)].slice(0, 5).join('; ') : 'every branch recurses without end'}`);
    this.name = 'UnsatisfiableSchemaError';
  }
}

type Built = { arb: fc.Arbitrary<JsonValue> } | { fail: 'exhausted' | 'never'; reasons: string[] };

/**
 * A shrinking fast-check arbitrary of values valid against `schema` (draft-07 as ajv reads it, plus
 * `prefixItems`). `$ref`s are followed through `options.resolver`; recursion is bounded by `maxDepth`.
 * Throws {@link UnsatisfiableSchemaError} when no finite value exists.
 */
export function arbitraryFromSchema(schema: JsonSchema, options: SchemaArbitraryOptions): fc.Arbitrary<JsonValue> {
  const resolved = resolveOptions(options);
  const built = build(schema, resolved, []);
  if ('arb' in built) return built.arb;
  if (built.fail === 'exhausted') return fc.constant(minimalValue(schema, options)).map(cloneJson);
  throw new UnsatisfiableSchemaError(built.reasons);
}

function build(schema: JsonSchema, options: ResolvedOptions, refStack: readonly string[]): Built {
  if (isEmptySchema(schema)) return { arb: anyJson() };
  const expansion = expandSchema(schema, options, refStack);
  const arbs: fc.Arbitrary<JsonValue>[] = [];
  const reasons = [...expansion.dropped];
  let exhausted = expansion.exhausted;
  for (const alternative of expansion.alternatives) {
    const built = buildFlat(alternative.flat, options, alternative.refStack);
    if ('arb' in built) arbs.push(built.arb);
    else {
      reasons.push(...built.reasons);
      exhausted ||= built.fail === 'exhausted';
    }
  }
  if (arbs.length === 0) return { fail: exhausted ? 'exhausted' : 'never', reasons };
  const arb = arbs.length === 1 ? (arbs[0] as fc.Arbitrary<JsonValue>) : fc.oneof(...arbs);
  // With oneOf, a value built from one branch may also match another one, which makes it invalid.
  if (expansion.exclusive) return { arb: guardedFilter(arb, (v) => options.check.accepts(schema, v), 'oneOf (exactly one branch)') };
  return { arb };
}

function buildFlat(flat: FlatSchema, options: ResolvedOptions, refStack: readonly string[]): Built {
  let built = buildTypes(flat, options, refStack);
  if ('arb' in built && flat.not.length > 0) {
    const nots = flat.not;
    built = { arb: guardedFilter(built.arb, (v) => nots.every((n) => !options.check.accepts(n, v)), '`not`') };
  }
  return built;
}

function buildTypes(flat: FlatSchema, options: ResolvedOptions, refStack: readonly string[]): Built {
  if (flat.enum) {
    const values = flat.enum.filter((v) => shallowFits(flat, v));
    if (values.length === 0) return { fail: 'never', reasons: ['no enum/const value satisfies the other keywords'] };
    return { arb: fc.constantFrom(...values).map(cloneJson) };
  }
  const types = flat.types ?? inferTypes(flat);
  if (types === undefined) return { arb: anyJson() };
  const arbs: fc.Arbitrary<JsonValue>[] = [];
  const reasons: string[] = [];
  let exhausted = false;
  for (const type of types) {
    if (type === 'integer' && types.includes('number')) continue;
    const built = buildType(type, flat, options, refStack);
    if ('arb' in built) arbs.push(built.arb);
    else {
      reasons.push(...built.reasons);
      exhausted ||= built.fail === 'exhausted';
    }
  }
  if (arbs.length === 0) return { fail: exhausted ? 'exhausted' : 'never', reasons };
  return { arb: arbs.length === 1 ? (arbs[0] as fc.Arbitrary<JsonValue>) : fc.oneof(...arbs) };
}

function leaf<T extends JsonValue>(result: { arb: fc.Arbitrary<T> } | { never: string }): Built {
  return 'arb' in result ? { arb: result.arb } : { fail: 'never', reasons: [result.never] };
}

function buildType(type: JsonType, flat: FlatSchema, options: ResolvedOptions, refStack: readonly string[]): Built {
  switch (type) {
    case 'null':
      return { arb: fc.constant(null) };
    case 'boolean':
      return { arb: fc.boolean() };
    case 'integer':
      return leaf(integerArbitrary(flat));
    case 'number':
      return leaf(numberArbitrary(flat));
    case 'string':
      return leaf(stringArbitrary(flat, options.maxStringLength));
    case 'array':
      return buildArray(flat, options, refStack);
    case 'object':
      return buildObject(flat, options, refStack);
    default:
      return { fail: 'never', reasons: [`unknown type ${JSON.stringify(type)}`] };
  }
}

function buildArray(flat: FlatSchema, options: ResolvedOptions, refStack: readonly string[]): Built {
  const min = flat.minItems ?? 0;
  if (flat.maxItems !== undefined && min > flat.maxItems) return { fail: 'never', reasons: [`minItems ${min} > maxItems ${flat.maxItems}`] };
  const max = Math.min(flat.maxItems ?? Infinity, Math.max(min, options.maxItems));
  const item: Built = flat.items === undefined ? { arb: anyJson() } : flat.items === false ? { fail: 'never', reasons: ['items: false'] } : build(flat.items, options, refStack);
  const prefix: fc.Arbitrary<JsonValue>[] = [];
  let prefixFailure: Built | undefined;
  for (const schema of flat.prefixItems.slice(0, max)) {
    const built = build(schema, options, refStack);
    if (!('arb' in built)) {
      prefixFailure = built;
      break;
    }
    prefix.push(built.arb);
  }
  const restAllowed = prefixFailure === undefined && prefix.length === flat.prefixItems.length && 'arb' in item;
  if (prefix.length < min && !restAllowed) return prefixFailure ?? item;
  const unique = flat.uniqueItems;
  let arb: fc.Arbitrary<JsonValue[]>;
  if (prefix.length === 0) {
    if (!('arb' in item) || max === 0) return min === 0 ? { arb: fc.constant([]) } : item;
    arb = unique ? fc.uniqueArray(item.arb, { minLength: min, maxLength: max, selector: canonicalJson }) : fc.array(item.arb, { minLength: min, maxLength: max });
  } else {
    const rest = restAllowed && 'arb' in item ? fc.array(item.arb, { minLength: Math.max(0, min - prefix.length), maxLength: max - prefix.length }) : fc.constant([]);
    arb = fc
      .tuple(fc.tuple(...prefix), rest, fc.integer({ min: Math.min(min, prefix.length), max: prefix.length }))
      .map(([head, tail, cut]) => (tail.length > 0 ? [...head, ...tail] : head.slice(0, cut)));
  }
  if (unique && prefix.length > 0) arb = guardedFilter(arb, (items) => new Set(items.map(canonicalJson)).size === items.length, 'uniqueItems');
  return { arb };
}

function buildObject(flat: FlatSchema, options: ResolvedOptions, refStack: readonly string[]): Built {
  const model: Record<string, fc.Arbitrary<JsonValue>> = {};
  const optionalKeys: string[] = [];
  const sized = flat.minProperties !== undefined || flat.maxProperties !== undefined;
  const keys = [...flat.properties.keys(), ...[...flat.required].filter((k) => !flat.properties.has(k))];
  for (const key of keys) {
    const required = flat.required.has(key);
    if (!required && options.optional === 'none' && !sized) continue;
    const built = build(schemaForKey(flat, key), options, refStack);
    if (!('arb' in built)) {
      if (required) return { fail: built.fail, reasons: built.reasons.map((r) => `${key}: ${r}`) };
      continue;
    }
    model[key] = built.arb;
    if (!required) optionalKeys.push(key);
  }
  const parts: fc.Arbitrary<Record<string, JsonValue>>[] = [declaredPart(model, optionalKeys, flat, options)];
  const taken = (key: string) => flat.properties.has(key) || flat.forbidden.has(key) || flat.required.has(key);
  const sizes = options.optional === 'none' ? { minKeys: 0, maxKeys: 0 } : { minKeys: options.optional === 'all' ? 1 : 0, maxKeys: 2 };
  for (const [pattern, schema] of flat.patternProperties) {
    const keyArb = patternArbitrary(pattern, 16);
    const value = build(schema, options, refStack);
    if (keyArb === undefined || !('arb' in value) || sizes.maxKeys === 0) continue;
    const keysOnlyHere = keyArb.filter((k) => !taken(k) && k !== '__proto__' && matchingPatterns(flat, k).length === 1);
    parts.push(fc.dictionary(keysOnlyHere, value.arb, { ...sizes, noNullPrototype: true }));
  }
  const additional = flat.additional;
  const isMap = flat.properties.size === 0 && flat.patternProperties.size === 0 && additional !== undefined && additional !== false && !isEmptySchema(additional);
  if (additional !== false && (isMap || options.extraKeys) && sizes.maxKeys > 0) {
    const value = additional === undefined ? ({ arb: anyJson() } as Built) : build(additional, options, refStack);
    const free = plainKey().filter((k) => !taken(k) && matchingPatterns(flat, k).length === 0);
    if ('arb' in value) parts.push(fc.dictionary(free, value.arb, { ...sizes, minKeys: isMap ? sizes.minKeys : 0, noNullPrototype: true }));
  }
  let arb: fc.Arbitrary<JsonValue> = fc.tuple(...parts).map((objects) => {
    const out: Record<string, JsonValue> = {};
    for (const object of objects) for (const [k, v] of Object.entries(object)) if (!Object.hasOwn(out, k)) defineKey(out, k, v);
    return out;
  });
  const { minProperties, maxProperties } = flat;
  if (minProperties !== undefined || maxProperties !== undefined) {
    arb = guardedFilter(arb, (o) => {
      const n = Object.keys(o as object).length;
      return n >= (minProperties ?? 0) && n <= (maxProperties ?? Infinity);
    }, `minProperties/maxProperties`);
  }
  return { arb };
}

/** The declared keys: required ones always, optional ones per `options.optional`, within min/maxProperties. */
function declaredPart(model: Record<string, fc.Arbitrary<JsonValue>>, optionalKeys: string[], flat: FlatSchema, options: ResolvedOptions): fc.Arbitrary<Record<string, JsonValue>> {
  const requiredCount = Object.keys(model).length - optionalKeys.length;
  const low = Math.min(optionalKeys.length, Math.max(0, (flat.minProperties ?? 0) - requiredCount));
  const high = Math.max(low, Math.min(optionalKeys.length, (flat.maxProperties ?? Infinity) - requiredCount));
  const count = options.optional === 'all' ? { minLength: high, maxLength: high } : options.optional === 'none' ? { minLength: low, maxLength: low } : { minLength: low, maxLength: high };
  if (flat.minProperties === undefined && flat.maxProperties === undefined) {
    // In 'none' mode the model holds the required keys only, so "all keys required" fits both fixed modes.
    const requiredKeys = options.optional === 'random' ? Object.keys(model).filter((k) => !optionalKeys.includes(k)) : Object.keys(model);
    return fc.record(model, { requiredKeys, noNullPrototype: true }) as fc.Arbitrary<Record<string, JsonValue>>;
  }
  return fc.tuple(fc.subarray(optionalKeys, count), fc.record(model, { noNullPrototype: true })).map(([chosen, all]) => {
    const out: Record<string, JsonValue> = {};
    for (const [k, v] of Object.entries(all as Record<string, JsonValue>)) if (!optionalKeys.includes(k) || chosen.includes(k)) defineKey(out, k, v);
    return out;
  });
}
