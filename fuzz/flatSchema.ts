import { canonicalJson, type JsonSchema, type JsonSchemaObject, type JsonType, jsonTypeOf, type JsonValue } from '../core/index.js';
import { patternRegExp } from './patternRegExp.js';

export const JSON_TYPES: readonly JsonType[] = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'];

/**
 * One conjunction of constraints with no `$ref`, `allOf`, `anyOf` or `oneOf` at its top: what the generators and
 * walkers reason about. Subschemas (properties, items, …) stay raw and are flattened when visited, which keeps
 * recursive models finite. Several constraints on one slot are kept as `{allOf: [...]}`.
 */
export interface FlatSchema {
  /** Declared types; undefined when the schema does not constrain the type. */
  types?: JsonType[];
  enum?: JsonValue[];
  /** True when `enum` comes from `const` (ajv then reports the `const` keyword). */
  fromConst: boolean;
  minLength?: number;
  maxLength?: number;
  patterns: string[];
  formats: string[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf: number[];
  prefixItems: JsonSchema[];
  /** Schema of items past `prefixItems`; undefined = any. */
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems: boolean;
  properties: Map<string, JsonSchema>;
  required: Set<string>;
  /** Keys that a closed member of an `allOf` does not allow. */
  forbidden: Set<string>;
  patternProperties: Map<string, JsonSchema>;
  /** `additionalProperties`; undefined = anything (open). */
  additional?: JsonSchema;
  minProperties?: number;
  maxProperties?: number;
  not: JsonSchema[];
  default?: { value: JsonValue };
  /** Assertion keywords seen but not modelled (the generators may produce values that they reject). */
  unsupported: string[];
}

const UNSUPPORTED_KEYWORDS = ['contains', 'propertyNames', 'dependencies', 'dependentRequired', 'dependentSchemas', 'unevaluatedItems', 'unevaluatedProperties'];

export function emptyFlat(): FlatSchema {
  return { fromConst: false, patterns: [], formats: [], multipleOf: [], prefixItems: [], uniqueItems: false, properties: new Map(), required: new Set(), forbidden: new Set(), patternProperties: new Map(), not: [], unsupported: [] };
}

export function conjoin(a: JsonSchema | undefined, b: JsonSchema | undefined): JsonSchema | undefined {
  if (a === undefined || a === true || isEmptySchema(a)) return b;
  if (b === undefined || b === true || isEmptySchema(b)) return a;
  if (a === false || b === false) return false;
  return { allOf: [a, b] };
}

export function isEmptySchema(schema: JsonSchema): boolean {
  return schema === true || (typeof schema === 'object' && Object.keys(schema).every((k) => ANNOTATIONS.has(k)));
}

export const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', 'example', '$comment', 'deprecated', 'readOnly', 'writeOnly', '$id', '$schema', 'summary', 'name']);

/** The keywords of one node other than `$ref`/`allOf`/`anyOf`/`oneOf`, as a flat schema. */
export function flatOf(node: JsonSchemaObject): FlatSchema {
  const flat = emptyFlat();
  if (typeof node.type === 'string') flat.types = [node.type as JsonType];
  else if (Array.isArray(node.type)) flat.types = [...new Set(node.type as JsonType[])];
  if (node.const !== undefined) {
    flat.enum = [node.const];
    flat.fromConst = true;
  } else if (Array.isArray(node.enum)) flat.enum = [...node.enum];
  copyNumber(node, flat, ['minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems', 'minProperties', 'maxProperties']);
  if (typeof node.exclusiveMinimum === 'number') flat.exclusiveMinimum = node.exclusiveMinimum;
  else if (node.exclusiveMinimum === true && flat.minimum !== undefined) [flat.exclusiveMinimum, flat.minimum] = [flat.minimum, undefined];
  if (typeof node.exclusiveMaximum === 'number') flat.exclusiveMaximum = node.exclusiveMaximum;
  else if (node.exclusiveMaximum === true && flat.maximum !== undefined) [flat.exclusiveMaximum, flat.maximum] = [flat.maximum, undefined];
  if (typeof node.multipleOf === 'number' && node.multipleOf > 0) flat.multipleOf = [node.multipleOf];
  if (typeof node.pattern === 'string') flat.patterns = [node.pattern];
  if (typeof node.format === 'string') flat.formats = [node.format];
  if (Array.isArray(node.items)) {
    flat.prefixItems = [...node.items];
    if (node['additionalItems'] !== undefined) flat.items = node['additionalItems'] as JsonSchema;
  } else {
    if (Array.isArray(node.prefixItems)) flat.prefixItems = [...node.prefixItems];
    if (node.items !== undefined) flat.items = node.items;
  }
  if (node.uniqueItems === true) flat.uniqueItems = true;
  for (const [key, schema] of Object.entries(node.properties ?? {})) flat.properties.set(key, schema);
  for (const key of node.required ?? []) flat.required.add(key);
  for (const [pattern, schema] of Object.entries(node.patternProperties ?? {})) flat.patternProperties.set(pattern, schema);
  if (node.additionalProperties !== undefined) flat.additional = node.additionalProperties;
  if (node.not !== undefined && !excludeTypes(flat, node.not)) flat.not = [node.not];
  if (node.default !== undefined) flat.default = { value: node.default };
  flat.unsupported = UNSUPPORTED_KEYWORDS.filter((k) => node[k] !== undefined);
  return flat;
}

/** `not: {type: …}` is folded into `types` (so generators never fight a filter); returns false when it cannot be. */
function excludeTypes(flat: FlatSchema, not: JsonSchema): boolean {
  if (typeof not !== 'object' || not.type === undefined || !Object.keys(not).every((k) => k === 'type' || ANNOTATIONS.has(k))) return false;
  const excluded = new Set((Array.isArray(not.type) ? not.type : [not.type]) as JsonType[]);
  if (excluded.has('integer') && !excluded.has('number')) return false;
  if (excluded.has('number')) excluded.add('integer');
  flat.types = (flat.types ?? JSON_TYPES).filter((t) => !excluded.has(t));
  return true;
}

function copyNumber(node: JsonSchemaObject, flat: FlatSchema, keys: Array<keyof FlatSchema & keyof JsonSchemaObject>): void {
  for (const key of keys) if (typeof node[key] === 'number') (flat as unknown as Record<string, number>)[key] = node[key];
}

/** Types implied by the keywords present when `type` is absent (generation only: validation admits every type). */
export function inferTypes(flat: FlatSchema): JsonType[] | undefined {
  const types: JsonType[] = [];
  if (flat.properties.size > 0 || flat.required.size > 0 || flat.patternProperties.size > 0 || flat.additional !== undefined) types.push('object');
  if (flat.prefixItems.length > 0 || flat.items !== undefined || flat.minItems !== undefined || flat.maxItems !== undefined) types.push('array');
  if (flat.patterns.length > 0 || flat.minLength !== undefined || flat.maxLength !== undefined || flat.formats.length > 0) types.push('string');
  if (flat.minimum !== undefined || flat.maximum !== undefined || flat.exclusiveMinimum !== undefined || flat.exclusiveMaximum !== undefined || flat.multipleOf.length > 0) types.push('number');
  return types.length > 0 ? types : undefined;
}

export function matchingPatterns(flat: FlatSchema, key: string): JsonSchema[] {
  return [...flat.patternProperties].filter(([pattern]) => patternRegExp(pattern)?.test(key) ?? false).map(([, schema]) => schema);
}

/** The constraint that `flat` puts on the value of `key`; `false` when the key is not allowed. */
export function schemaForKey(flat: FlatSchema, key: string): JsonSchema {
  if (flat.forbidden.has(key)) return false;
  const declared = flat.properties.get(key);
  const patterns = matchingPatterns(flat, key);
  if (declared !== undefined || patterns.length > 0) return [declared, ...patterns].reduce<JsonSchema | undefined>(conjoin, undefined) ?? true;
  return flat.additional ?? true;
}

function intersectTypes(a: JsonType[] | undefined, b: JsonType[] | undefined): JsonType[] | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const out = new Set<JsonType>();
  for (const t of a) {
    if (b.includes(t)) out.add(t);
    else if (t === 'integer' && b.includes('number')) out.add('integer');
    else if (t === 'number' && b.includes('integer')) out.add('integer');
  }
  return [...out];
}

const maxOf = (a: number | undefined, b: number | undefined): number | undefined => (a === undefined ? b : b === undefined ? a : Math.max(a, b));
const minOf = (a: number | undefined, b: number | undefined): number | undefined => (a === undefined ? b : b === undefined ? a : Math.min(a, b));

export type MergeResult = { flat: FlatSchema } | { never: string };

/** True when `flat` constrains nothing (its `default` aside). */
function isBlank(flat: FlatSchema): boolean {
  return (
    flat.types === undefined &&
    flat.enum === undefined &&
    !flat.fromConst &&
    flat.minLength === undefined &&
    flat.maxLength === undefined &&
    flat.minimum === undefined &&
    flat.maximum === undefined &&
    flat.exclusiveMinimum === undefined &&
    flat.exclusiveMaximum === undefined &&
    flat.minItems === undefined &&
    flat.maxItems === undefined &&
    flat.minProperties === undefined &&
    flat.maxProperties === undefined &&
    flat.items === undefined &&
    flat.additional === undefined &&
    !flat.uniqueItems &&
    flat.patterns.length === 0 &&
    flat.formats.length === 0 &&
    flat.multipleOf.length === 0 &&
    flat.prefixItems.length === 0 &&
    flat.not.length === 0 &&
    flat.unsupported.length === 0 &&
    flat.properties.size === 0 &&
    flat.required.size === 0 &&
    flat.forbidden.size === 0 &&
    flat.patternProperties.size === 0
  );
}

const distinct = (values: readonly unknown[]): boolean => values.length <= 1 || new Set(values).size === values.length;

/**
 * True when merging a blank flat schema with `flat` (on the right) gives `flat` back as it is: no enum value of a type it
 * excludes, no declared property that is `false`, forbidden or matched by a pattern, no required key it cannot
 * have, no repeated pattern, format, divisor or keyword. mergeFlatInFull would rewrite or refuse those.
 */
function mergesWithBlankUnchanged(flat: FlatSchema): boolean {
  const types = flat.types;
  if (types?.length === 0 || flat.enum?.length === 0) return false;
  if (flat.enum && types && !flat.enum.every((v) => types.includes(jsonTypeOf(v)) || (jsonTypeOf(v) === 'integer' && types.includes('number')))) return false;
  if (!distinct(flat.patterns) || !distinct(flat.formats) || !distinct(flat.multipleOf) || !distinct(flat.unsupported)) return false;
  for (const [key, schema] of flat.properties) {
    if (schema === false || flat.forbidden.has(key) || matchingPatterns(flat, key).length > 0) return false;
  }
  for (const key of flat.required) {
    if (flat.forbidden.has(key) || (!flat.properties.has(key) && schemaForKey(flat, key) === false)) return false;
  }
  return true;
}

/** The conjunction of two flat schemas (the core of `allOf`), or the reason none exists. */
export function mergeFlat(a: FlatSchema, b: FlatSchema): MergeResult {
  // Every expansion starts from a blank schema, and a node with annotations only (a default) often meets its
  // anyOf branches: the right side comes out as it is, the default taken as mergeFlatInFull takes it. (A blank
  // right side is not the same case: the full merge drops a left `items: true` or `{}` property there.)
  if (isBlank(a) && mergesWithBlankUnchanged(b)) return { flat: a.default === undefined ? b : { ...b, default: a.default } };
  return mergeFlatInFull(a, b);
}

/** mergeFlat without its shortcut for a blank left side (exported for its tests). */
export function mergeFlatInFull(a: FlatSchema, b: FlatSchema): MergeResult {
  const out = emptyFlat();
  out.types = intersectTypes(a.types, b.types);
  if (out.types?.length === 0) return { never: `no type satisfies both ${JSON.stringify(a.types)} and ${JSON.stringify(b.types)}` };
  if (a.enum && b.enum) {
    const keys = new Set(b.enum.map(canonicalJson));
    out.enum = a.enum.filter((v) => keys.has(canonicalJson(v)));
  } else out.enum = a.enum ?? b.enum;
  out.fromConst = a.fromConst || b.fromConst;
  if (out.enum && out.types) {
    const types = out.types;
    out.enum = out.enum.filter((v) => types.includes(jsonTypeOf(v)) || (jsonTypeOf(v) === 'integer' && types.includes('number')));
  }
  if (out.enum?.length === 0) return { never: 'the enum/const values of the members have nothing in common' };
  out.minLength = maxOf(a.minLength, b.minLength);
  out.maxLength = minOf(a.maxLength, b.maxLength);
  out.minimum = maxOf(a.minimum, b.minimum);
  out.maximum = minOf(a.maximum, b.maximum);
  out.exclusiveMinimum = maxOf(a.exclusiveMinimum, b.exclusiveMinimum);
  out.exclusiveMaximum = minOf(a.exclusiveMaximum, b.exclusiveMaximum);
  out.minItems = maxOf(a.minItems, b.minItems);
  out.maxItems = minOf(a.maxItems, b.maxItems);
  out.minProperties = maxOf(a.minProperties, b.minProperties);
  out.maxProperties = minOf(a.maxProperties, b.maxProperties);
  out.patterns = [...new Set([...a.patterns, ...b.patterns])];
  out.formats = [...new Set([...a.formats, ...b.formats])];
  out.multipleOf = [...new Set([...a.multipleOf, ...b.multipleOf])];
  out.uniqueItems = a.uniqueItems || b.uniqueItems;
  const prefixLength = Math.max(a.prefixItems.length, b.prefixItems.length);
  for (let i = 0; i < prefixLength; i++) out.prefixItems.push(conjoin(a.prefixItems[i] ?? a.items, b.prefixItems[i] ?? b.items) ?? true);
  out.items = conjoin(a.items, b.items);
  for (const key of new Set([...a.properties.keys(), ...b.properties.keys()])) {
    const schema = conjoin(schemaForKey(a, key), schemaForKey(b, key)) ?? true;
    if (schema === false) out.forbidden.add(key);
    else out.properties.set(key, schema);
  }
  for (const key of [...a.forbidden, ...b.forbidden]) {
    out.forbidden.add(key);
    out.properties.delete(key);
  }
  for (const key of [...a.required, ...b.required]) out.required.add(key);
  for (const [pattern, schema] of [...a.patternProperties, ...b.patternProperties]) out.patternProperties.set(pattern, conjoin(out.patternProperties.get(pattern), schema) ?? true);
  out.additional = conjoin(a.additional, b.additional);
  const lostRequired = [...out.required].filter((key) => out.forbidden.has(key) || (!out.properties.has(key) && schemaForKey(out, key) === false));
  if (lostRequired.length > 0) return { never: `required key(s) ${lostRequired.join(', ')} are not allowed by a closed member (additionalProperties: false)` };
  out.not = [...a.not, ...b.not];
  out.default = a.default ?? b.default;
  out.unsupported = [...new Set([...a.unsupported, ...b.unsupported])];
  return { flat: out };
}

/** A JSON Schema equivalent to `flat` (minus unsupported keywords), for validating a value against one alternative. */
export function flatToSchema(flat: FlatSchema): JsonSchemaObject {
  const out: JsonSchemaObject = {};
  const extra: JsonSchema[] = [];
  if (flat.types) out.type = flat.types;
  if (flat.enum) out.enum = flat.enum;
  for (const key of ['minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems', 'minProperties', 'maxProperties'] as const) {
    if (flat[key] !== undefined) out[key] = flat[key];
  }
  for (const pattern of flat.patterns) extra.push({ pattern });
  for (const format of flat.formats) extra.push({ format });
  for (const multipleOf of flat.multipleOf) extra.push({ multipleOf });
  if (flat.prefixItems.length > 0) {
    out.items = flat.prefixItems;
    if (flat.items !== undefined) out['additionalItems'] = flat.items;
  } else if (flat.items !== undefined) out.items = flat.items;
  if (flat.uniqueItems) out.uniqueItems = true;
  if (flat.properties.size > 0 || flat.forbidden.size > 0) {
    out.properties = Object.fromEntries([...flat.properties, ...[...flat.forbidden].map((key) => [key, false] as const)]);
  }
  if (flat.required.size > 0) out.required = [...flat.required];
  if (flat.patternProperties.size > 0) out.patternProperties = Object.fromEntries(flat.patternProperties);
  if (flat.additional !== undefined) out.additionalProperties = flat.additional;
  if (flat.not.length > 0) extra.push({ not: { anyOf: flat.not } });
  if (extra.length > 0) out.allOf = extra;
  return out;
}
