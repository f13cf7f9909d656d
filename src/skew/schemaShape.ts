import { jsonTypeOf, type JsonSchema, type JsonSchemaObject, type JsonType, type SchemaResolver } from '../../core/index.js';

export type { JsonType };

export const ALL_TYPES: readonly JsonType[] = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'];

/** One alternative of a schema after `$ref`, `allOf` and `anyOf`/`oneOf` are taken apart. */
export interface Branch {
  node: JsonSchemaObject;
  types: ReadonlySet<JsonType>;
  /** Component name when the branch was reached through a `$ref` (`SessionCreateParams`). */
  model: string | undefined;
}

const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', '$comment', 'deprecated', 'readOnly', 'writeOnly', '$id', '$schema']);
const ANY: JsonSchemaObject = {};
const MAX_DEPTH = 32;

function isJsonType(value: unknown): value is JsonType {
  return typeof value === 'string' && (ALL_TYPES as readonly string[]).includes(value);
}

/** True when a value of type `produced` passes a `type` check for `accepted` (every integer is a number). */
export function typeAccepts(accepted: ReadonlySet<JsonType>, produced: JsonType): boolean {
  return accepted.has(produced) || (produced === 'integer' && accepted.has('number'));
}

/** The enum/const values of a node, undefined when it does not restrict values. */
export function valuesOf(node: JsonSchemaObject): readonly unknown[] | undefined {
  if (node.const !== undefined) return [node.const];
  return Array.isArray(node.enum) ? node.enum : undefined;
}

function typesOf(node: JsonSchemaObject): Set<JsonType> {
  if (typeof node.type === 'string') return new Set(isJsonType(node.type) ? [node.type] : []);
  if (Array.isArray(node.type)) return new Set(node.type.filter(isJsonType));
  const values = valuesOf(node);
  if (values) return new Set(values.map(jsonTypeOf));
  if (node.properties !== undefined || node.required !== undefined || node.patternProperties !== undefined) return new Set(['object']);
  if (node.additionalProperties !== undefined) return new Set(['object']);
  if (node.items !== undefined || node.prefixItems !== undefined) return new Set(['array']);
  return new Set(ALL_TYPES);
}

/** True when the node accepts every JSON value (only annotations, or the `true` schema). */
export function isUnconstrained(node: JsonSchemaObject): boolean {
  return Object.keys(node).every((key) => ANNOTATIONS.has(key));
}

function lastSegment(ref: string): string {
  const segments = ref.split('/');
  return decodeURIComponent(segments[segments.length - 1] ?? ref);
}

/** Follows a `$ref` chain; remembers the last component name on the way. Dangling refs resolve to "anything". */
export function follow(schema: JsonSchema, resolver: SchemaResolver): { node: JsonSchema; model: string | undefined } {
  let node = schema;
  let model: string | undefined;
  for (let hop = 0; hop < MAX_DEPTH; hop++) {
    if (typeof node === 'boolean' || typeof node.$ref !== 'string') return { node, model };
    model = lastSegment(node.$ref);
    const target = resolver.resolve(node.$ref);
    if (target === undefined) return { node: true, model };
    node = target;
  }
  return { node: true, model };
}

// Merged nodes are cached so that the same `allOf` node always yields the same object: the comparison's cycle guard
// works on node identity.
const mergedCache = new WeakMap<JsonSchemaObject, JsonSchemaObject>();

/** Merges the parts of an `allOf` into one object node (properties and required united, closed if any part is). */
function mergeAllOf(node: JsonSchemaObject, resolver: SchemaResolver, depth: number): JsonSchemaObject {
  if (!Array.isArray(node.allOf) || depth > MAX_DEPTH) return node;
  const cached = mergedCache.get(node);
  if (cached) return cached;
  const { allOf, ...rest } = node;
  let merged: JsonSchemaObject = { ...rest };
  for (const part of allOf) {
    const followed = follow(part, resolver).node;
    if (followed === true) continue;
    const resolved: JsonSchemaObject = followed === false ? { not: {} } : mergeAllOf(followed, resolver, depth + 1);
    const properties = { ...(resolved.properties ?? {}), ...(merged.properties ?? {}) };
    const required = [...new Set([...(resolved.required ?? []), ...(merged.required ?? [])])];
    merged = {
      ...resolved,
      ...merged,
      ...(Object.keys(properties).length > 0 ? { properties } : {}),
      ...(required.length > 0 ? { required } : {}),
      ...(resolved.additionalProperties === false || merged.additionalProperties === false ? { additionalProperties: false } : {}),
    };
  }
  mergedCache.set(node, merged);
  return merged;
}

/**
 * The alternatives of a schema. `false` yields no branch (accepts nothing), `true` one unconstrained branch;
 * `anyOf`/`oneOf` are flattened (keywords beside them other than annotations are ignored, as generators put only
 * `title`/`default` there).
 */
export function branchesOf(schema: JsonSchema, resolver: SchemaResolver, depth = 0): Branch[] {
  const { node, model } = follow(schema, resolver);
  if (node === false) return [];
  if (node === true || depth > MAX_DEPTH) return [{ node: ANY, types: new Set(ALL_TYPES), model }];
  const merged = mergeAllOf(node, resolver, depth);
  const alternatives = merged.anyOf ?? merged.oneOf;
  if (Array.isArray(alternatives)) {
    return alternatives.flatMap((alternative) =>
      branchesOf(alternative, resolver, depth + 1).map((branch) => ({ ...branch, model: branch.model ?? model })),
    );
  }
  return [{ node: merged, types: typesOf(merged), model }];
}

/** `exclusiveMinimum` as draft 4 (boolean beside `minimum`) or draft 6+ (a number). */
export function lowerBound(node: JsonSchemaObject): { value: number; exclusive: boolean } | undefined {
  const exclusive = node.exclusiveMinimum;
  if (typeof exclusive === 'number' && (node.minimum === undefined || exclusive >= node.minimum)) return { value: exclusive, exclusive: true };
  if (typeof node.minimum === 'number') return { value: node.minimum, exclusive: exclusive === true };
  return undefined;
}

export function upperBound(node: JsonSchemaObject): { value: number; exclusive: boolean } | undefined {
  const exclusive = node.exclusiveMaximum;
  if (typeof exclusive === 'number' && (node.maximum === undefined || exclusive <= node.maximum)) return { value: exclusive, exclusive: true };
  if (typeof node.maximum === 'number') return { value: node.maximum, exclusive: exclusive === true };
  return undefined;
}
