import * as fc from 'fast-check';
import { canonicalJson, cloneJson, defineKey, type JsonValue } from '../core/index.js';
import { shallowFits } from './flatChecks.js';
import { type FlatSchema, inferTypes, matchingPatterns } from './flatSchema.js';
import { anyJson, guardedFilter, integerArbitrary, type Leaf, numberArbitrary, plainKey, stringArbitrary } from './leafArbitraries.js';
import { patternArbitrary } from './patternStrings.js';
import type { ResolvedOptions } from './schemaOptions.js';
import { type ArrayPlan, Failures, type LeafType, never, type ObjectPlan, type SchemaInterpreter, type Walked } from './schemaWalker.js';

type Arb = fc.Arbitrary<JsonValue>;

/** Walks a schema into a shrinking fast-check arbitrary of its values. */
export function arbitraryInterpreter(options: ResolvedOptions): SchemaInterpreter<Arb> {
  const excludeNot = (flat: FlatSchema, arb: Arb): Arb => {
    if (flat.not.length === 0) return arb;
    const nots = flat.not;
    return guardedFilter(arb, (v) => nots.every((n) => !options.check.accepts(n, v)), '`not`');
  };
  return {
    maxDepth: options.maxDepth,
    anything: anyJson,
    alternatives: (schema, found, failures, exclusive) => {
      const arb = union(found, failures);
      // With oneOf, a value built from one branch may also match another one, which makes it invalid.
      if (!exclusive || !('value' in arb)) return arb;
      return { value: guardedFilter(arb.value, (v) => options.check.accepts(schema, v), 'oneOf (exactly one branch)') };
    },
    fixed: (flat) => {
      if (!flat.enum) return undefined;
      const values = flat.enum.filter((v) => shallowFits(flat, v));
      if (values.length === 0) return never('no enum/const value satisfies the other keywords');
      return { value: excludeNot(flat, fc.constantFrom(...values).map(cloneJson)) };
    },
    typeOrder: (flat) => {
      const types = flat.types ?? inferTypes(flat);
      return types?.filter((type) => !(type === 'integer' && types.includes('number')));
    },
    types: (flat, byType) => {
      const arbs: Arb[] = [];
      const failures = new Failures();
      for (const walked of byType) {
        if ('value' in walked) arbs.push(walked.value);
        else failures.add(walked);
      }
      const arb = union(arbs, failures);
      return 'value' in arb ? { value: excludeNot(flat, arb.value) } : arb;
    },
    leaf: (type, flat) => leafArbitrary(type, flat, options),
    array: (plan) => arrayArbitrary(plan, options),
    object: (plan) => objectArbitrary(plan, options),
  };
}

function union(arbs: Arb[], failures: Failures): Walked<Arb> {
  if (arbs.length === 0) return failures.result();
  return { value: arbs.length === 1 ? (arbs[0] as Arb) : fc.oneof(...arbs) };
}

function leafArbitrary(type: LeafType, flat: FlatSchema, options: ResolvedOptions): Walked<Arb> {
  const leaf = <T extends JsonValue>(result: Leaf<T>): Walked<Arb> => ('arb' in result ? { value: result.arb } : never(result.never));
  switch (type) {
    case 'null':
      return { value: fc.constant(null) };
    case 'boolean':
      return { value: fc.boolean() };
    case 'integer':
      return leaf(integerArbitrary(flat));
    case 'number':
      return leaf(numberArbitrary(flat));
    case 'string':
      return leaf(stringArbitrary(flat, options.maxStringLength));
  }
}

function arrayArbitrary(plan: ArrayPlan<Arb>, options: ResolvedOptions): Walked<Arb> {
  const { flat, min } = plan;
  const max = Math.min(plan.max, Math.max(min, options.maxItems));
  const prefixCount = flat.prefixItems.length;
  const item = plan.item(prefixCount);
  const prefix: Arb[] = [];
  let prefixFailure: Walked<Arb> | undefined;
  for (let index = 0; index < flat.prefixItems.slice(0, max).length; index++) {
    const built = plan.item(index);
    if (!('value' in built)) {
      prefixFailure = built;
      break;
    }
    prefix.push(built.value);
  }
  const restAllowed = prefixFailure === undefined && prefix.length === prefixCount && 'value' in item;
  if (prefix.length < min && !restAllowed) return prefixFailure ?? item;
  const unique = flat.uniqueItems;
  let arb: fc.Arbitrary<JsonValue[]>;
  if (prefix.length === 0) {
    if (!('value' in item) || max === 0) return min === 0 ? { value: fc.constant([]) } : item;
    arb = unique ? fc.uniqueArray(item.value, { minLength: min, maxLength: max, selector: canonicalJson }) : fc.array(item.value, { minLength: min, maxLength: max });
  } else {
    const rest = restAllowed && 'value' in item ? fc.array(item.value, { minLength: Math.max(0, min - prefix.length), maxLength: max - prefix.length }) : fc.constant([]);
    arb = fc
      .tuple(fc.tuple(...prefix), rest, fc.integer({ min: Math.min(min, prefix.length), max: prefix.length }))
      .map(([head, tail, cut]) => (tail.length > 0 ? [...head, ...tail] : head.slice(0, cut)));
  }
  if (unique && prefix.length > 0) arb = guardedFilter(arb, (items) => new Set(items.map(canonicalJson)).size === items.length, 'uniqueItems');
  return { value: arb };
}

function objectArbitrary(plan: ObjectPlan<Arb>, options: ResolvedOptions): Walked<Arb> {
  const { flat } = plan;
  const model: Record<string, Arb> = {};
  const optionalKeys: string[] = [];
  const sized = flat.minProperties !== undefined || flat.maxProperties !== undefined;
  for (const { key, required } of plan.keys) {
    if (!required && options.optional === 'none' && !sized) continue;
    const built = plan.member(key);
    if (!('value' in built)) {
      if (required) return built;
      continue;
    }
    model[key] = built.value;
    if (!required) optionalKeys.push(key);
  }
  const parts: fc.Arbitrary<Record<string, JsonValue>>[] = [declaredPart(model, optionalKeys, flat, options)];
  const sizes = options.optional === 'none' ? { minKeys: 0, maxKeys: 0 } : { minKeys: options.optional === 'all' ? 1 : 0, maxKeys: 2 };
  for (const [pattern, schema] of flat.patternProperties) {
    const keyArb = patternArbitrary(pattern, 16);
    const value = plan.walk(schema);
    if (keyArb === undefined || !('value' in value) || sizes.maxKeys === 0) continue;
    const keysOnlyHere = keyArb.filter((k) => !plan.taken(k) && k !== '__proto__' && matchingPatterns(flat, k).length === 1);
    parts.push(fc.dictionary(keysOnlyHere, value.value, { ...sizes, noNullPrototype: true }));
  }
  const additional = flat.additional;
  if (additional !== false && (plan.isMap || options.extraKeys) && sizes.maxKeys > 0) {
    const value = plan.walk(additional ?? true);
    const free = plainKey().filter((k) => !plan.taken(k) && matchingPatterns(flat, k).length === 0);
    if ('value' in value) parts.push(fc.dictionary(free, value.value, { ...sizes, minKeys: plan.isMap ? sizes.minKeys : 0, noNullPrototype: true }));
  }
  let arb: Arb = fc.tuple(...parts).map((objects) => {
    // Most objects have declared keys only: that record is already fresh, and copying it cost more than building it.
    if (objects.length === 1) return objects[0] as Record<string, JsonValue>;
    const out: Record<string, JsonValue> = {};
    for (const object of objects) for (const [k, v] of Object.entries(object)) if (!Object.hasOwn(out, k)) defineKey(out, k, v);
    return out;
  });
  const { minProperties, maxProperties } = flat;
  if (sized) {
    arb = guardedFilter(arb, (o) => {
      const n = Object.keys(o as object).length;
      return n >= (minProperties ?? 0) && n <= (maxProperties ?? Infinity);
    }, `minProperties/maxProperties`);
  }
  return { value: arb };
}

/** The declared keys: required ones always, optional ones per `options.optional`, within min/maxProperties. */
function declaredPart(model: Record<string, Arb>, optionalKeys: string[], flat: FlatSchema, options: ResolvedOptions): fc.Arbitrary<Record<string, JsonValue>> {
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
