import { isJsonObject, type JsonPath, type JsonSchema, type JsonValue, type SchemaResolver } from '../core/index.js';
import { type Expansion, expandSchema } from './expandSchema.js';
import { shallowFits } from './flatChecks.js';
import { type FlatSchema, flatToSchema, schemaForKey } from './flatSchema.js';
import { schemaCheckFor } from './schemaCheck.js';

export interface WalkNode {
  path: JsonPath;
  value: JsonValue;
  /** The schema that applies at this path (as written, `$ref`s unresolved). */
  schema: JsonSchema;
  /** Every alternative of that schema. */
  alternatives: readonly FlatSchema[];
  /** The alternatives the value actually satisfies; children are walked with the first one. */
  matching: readonly FlatSchema[];
}

const expansions = new WeakMap<SchemaResolver, WeakMap<object, Expansion>>();
const flatSchemas = new WeakMap<FlatSchema, JsonSchema>();

/** Alternatives of a schema with unbounded `$ref` depth (a finite value bounds the walk), cached per schema node. */
export function alternativesOf(schema: JsonSchema, resolver: SchemaResolver): Expansion {
  if (typeof schema === 'boolean') return expandSchema(schema, { resolver, maxDepth: Infinity });
  let cache = expansions.get(resolver);
  if (!cache) expansions.set(resolver, (cache = new WeakMap()));
  let expansion = cache.get(schema);
  if (!expansion) {
    expansion = expandSchema(schema, { resolver, maxDepth: Infinity });
    cache.set(schema, expansion);
  }
  return expansion;
}

/** The JSON Schema of one alternative, cached so that its validator is compiled once. */
export function alternativeSchema(flat: FlatSchema): JsonSchema {
  let schema = flatSchemas.get(flat);
  if (!schema) {
    schema = flatToSchema(flat);
    flatSchemas.set(flat, schema);
  }
  return schema;
}

/**
 * Visits `value` and every nested object property and array item together with the schema that governs it,
 * choosing among `anyOf`/`oneOf` alternatives the ones the value satisfies. Pre-order, keys in value order.
 */
export function walkValue(schema: JsonSchema, value: JsonValue, resolver: SchemaResolver, visit: (node: WalkNode) => void): void {
  const check = schemaCheckFor(resolver);
  const step = (current: JsonSchema, node: JsonValue, path: JsonPath) => {
    const alternatives = alternativesOf(current, resolver).alternatives.map((a) => a.flat);
    // The root value is valid and each step follows an alternative the parent satisfies, so a lone alternative
    // needs no check; among several, a cheap shallow test usually decides before ajv has to.
    const shallow = alternatives.length === 1 ? alternatives : alternatives.filter((flat) => shallowFits(flat, node));
    const matching = shallow.length <= 1 ? shallow : shallow.filter((flat) => check.accepts(alternativeSchema(flat), node));
    visit({ path, value: node, schema: current, alternatives, matching });
    const chosen = matching[0];
    if (chosen === undefined) return;
    if (Array.isArray(node)) node.forEach((item, index) => step(chosen.prefixItems[index] ?? chosen.items ?? true, item, [...path, index]));
    else if (isJsonObject(node)) for (const [key, item] of Object.entries(node)) step(schemaForKey(chosen, key), item, [...path, key]);
  };
  step(schema, value, []);
}
