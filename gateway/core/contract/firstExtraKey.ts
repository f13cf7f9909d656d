import type { SchemaNode } from './contractSet.js';
import { deref, isPlainObject, pickBranch, type Resolve, type SchemaObject } from './schemaBranches.js';

interface Walk {
  readonly resolve: Resolve;
  /** Treat open models (additionalProperties true or absent) as closed: what a gateway that misreads them does. */
  readonly closeOpenModels: boolean;
}

/** Nesting levels walked before giving up; real payloads are far shallower. */
const MAX_DEPTH = 256;

function walk(value: unknown, raw: SchemaNode, path: string[], ctx: Walk, depth: number): string[] | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const { resolve } = ctx;
  const node = deref(raw, resolve);
  if (typeof node === 'boolean') return undefined;
  for (const combinator of ['anyOf', 'oneOf'] as const) {
    const branches = node[combinator];
    if (!Array.isArray(branches)) continue;
    const branch = pickBranch(value, branches as SchemaNode[], resolve);
    const found = branch === undefined ? undefined : walk(value, branch, path, ctx, depth + 1);
    if (found) return found;
  }
  if (Array.isArray(node['allOf'])) {
    for (const part of node['allOf'] as SchemaNode[]) {
      const found = walk(value, part, path, ctx, depth + 1);
      if (found) return found;
    }
  }
  if (isPlainObject(value)) return walkObject(value, node, path, ctx, depth);
  if (Array.isArray(value)) return walkArray(value, node, path, ctx, depth);
  return undefined;
}

function walkObject(value: Record<string, unknown>, node: SchemaObject, path: string[], ctx: Walk, depth: number): string[] | undefined {
  const properties = isPlainObject(node['properties']) ? (node['properties'] as Record<string, SchemaNode>) : {};
  // Pydantic validates declared fields in declaration order (recursing), then reports extras in input order.
  for (const [name, schema] of Object.entries(properties)) {
    if (!Object.hasOwn(value, name)) continue;
    const found = walk(value[name], schema, [...path, name], ctx, depth + 1);
    if (found) return found;
  }
  const patterns = isPlainObject(node['patternProperties']) ? Object.entries(node['patternProperties'] as Record<string, SchemaNode>) : [];
  const additional = node['additionalProperties'];
  for (const key of Object.keys(value)) {
    if (Object.hasOwn(properties, key)) continue;
    const pattern = patterns.find(([source]) => safeTest(source, key));
    if (pattern) {
      const found = walk(value[key], pattern[1], [...path, key], ctx, depth + 1);
      if (found) return found;
      continue;
    }
    if (additional === false || (ctx.closeOpenModels && (additional === true || additional === undefined))) return [...path, key];
    if (isPlainObject(additional)) {
      const found = walk(value[key], additional as SchemaNode, [...path, key], ctx, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

function walkArray(value: unknown[], node: SchemaObject, path: string[], ctx: Walk, depth: number): string[] | undefined {
  const prefix = Array.isArray(node['prefixItems']) ? node['prefixItems'] : Array.isArray(node['items']) ? node['items'] : [];
  const rest = Array.isArray(node['items']) ? node['additionalItems'] : node['items'];
  for (let i = 0; i < value.length; i++) {
    const schema = (i < prefix.length ? prefix[i] : rest) as SchemaNode | undefined;
    if (schema === undefined || typeof schema === 'boolean') continue;
    const found = walk(value[i], schema, [...path, String(i)], ctx, depth + 1);
    if (found) return found;
  }
  return undefined;
}

function safeTest(source: string, key: string): boolean {
  try {
    return new RegExp(source, 'u').test(key);
  } catch {
    return false;
  }
}

/**
 * The location of the first key a closed model (`additionalProperties: false`) does not declare, in the order
 * Pydantic reports it: declared fields in declaration order (recursing into nested models, list items and the
 * anyOf branch the value matches), then the object's own extra keys in input order. Open models accept extras.
 */
export function firstExtraKey(value: unknown, schema: SchemaNode, resolve: Resolve, path: readonly string[] = [], options: { closeOpenModels?: boolean } = {}): string[] | undefined {
  return walk(value, schema, [...path], { resolve, closeOpenModels: options.closeOpenModels ?? false }, 0);
}
