import { parseFragment, type JsonSchema, type JsonSchemaObject, type SchemaResolver } from '../core/index.js';

export class DanglingRefError extends Error {
  constructor(readonly ref: string) {
    super(`$ref "${ref}" does not resolve: the resolver has no schema at that pointer; fix the reference or pass a resolver over the whole document`);
    this.name = 'DanglingRefError';
  }
}

/**
 * Copies a schema tree: `$id`/`$schema` dropped (refs are document-relative), draft-04 boolean
 * `exclusiveMinimum`/`exclusiveMaximum` rewritten into the numeric form ajv accepts, and every `$ref`
 * passed through `mapRef`.
 */
export function copySchemaTree(node: unknown, mapRef: (ref: string) => string): unknown {
  if (Array.isArray(node)) return node.map((item) => copySchemaTree(item, mapRef));
  if (typeof node !== 'object' || node === null) return node;
  const source = node as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === '$id' || key === '$schema') continue;
    copy[key] = key === '$ref' && typeof value === 'string' ? mapRef(value) : copySchemaTree(value, mapRef);
  }
  for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof copy[flag] === 'boolean') {
      if (copy[flag] === true && typeof copy[bound] === 'number') {
        copy[flag] = copy[bound];
        delete copy[bound];
      } else delete copy[flag];
    }
  }
  return copy;
}

function place(root: Record<string, unknown>, parts: string[], value: unknown): void {
  let node = root;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  const last = parts[parts.length - 1];
  if (last !== undefined) node[last] = value;
}

/**
 * A self-contained copy of `schema`: every local `$ref` it reaches ("#/components/schemas/X") is resolved
 * through `resolver` and placed at the same pointer inside the copy, so a validator or json-schema-faker can
 * follow the references without the original document. `$id`s are dropped because refs are document-relative.
 */
export function bundleSchema(schema: JsonSchema, resolver: SchemaResolver): JsonSchema {
  if (typeof schema === 'boolean') return schema;
  const refs = new Set<string>();
  const collect = (ref: string) => {
    refs.add(ref);
    return ref;
  };
  const root = copySchemaTree(schema, collect) as JsonSchemaObject;
  const placed = new Set<string>();
  while (placed.size < refs.size) {
    for (const ref of [...refs]) {
      if (placed.has(ref)) continue;
      placed.add(ref);
      if (ref === '#') continue;
      if (!ref.startsWith('#/')) throw new DanglingRefError(ref);
      const target = resolver.resolve(ref);
      if (target === undefined) throw new DanglingRefError(ref);
      const parsed = parseFragment(ref);
      if (!parsed.ok) throw new DanglingRefError(ref);
      place(root, parsed.tokens, copySchemaTree(target, collect));
    }
  }
  return root;
}
