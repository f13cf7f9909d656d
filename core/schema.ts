import type { JsonValue } from './json.js';

/**
 * A JSON Schema node as found in an OpenRPC document. Boolean schemas are allowed (`true` = anything, `false` = nothing).
 * `$ref`s are kept as written; a {@link SchemaResolver} follows them on demand, which keeps recursive models finite.
 */
export type JsonSchema = boolean | JsonSchemaObject;

export interface JsonSchemaObject {
  $ref?: string;
  $id?: string;
  type?: string | string[];
  enum?: JsonValue[];
  const?: JsonValue;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  not?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema;
  patternProperties?: Record<string, JsonSchema>;
  items?: JsonSchema | JsonSchema[];
  prefixItems?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  multipleOf?: number;
  minProperties?: number;
  maxProperties?: number;
  default?: JsonValue;
  title?: string;
  description?: string;
  [keyword: string]: unknown;
}

/** Follows `$ref`s of one document. `resolve` returns undefined for a dangling reference. */
export interface SchemaResolver {
  resolve(ref: string): JsonSchema | undefined;
  /** A digest of the document the references resolve in (equal documents, equal digests): validators compiled against it may be kept between runs. */
  documentDigest?(): string;
}

/** Follows `$ref` chains until a non-reference node; returns the node unchanged when it is not a reference. */
export function derefSchema(schema: JsonSchema, resolver: SchemaResolver, maxHops = 32): JsonSchema {
  let node = schema;
  for (let hop = 0; hop < maxHops; hop++) {
    if (typeof node === 'boolean' || typeof node.$ref !== 'string') return node;
    const target = resolver.resolve(node.$ref);
    if (target === undefined) return node;
    node = target;
  }
  return node;
}
