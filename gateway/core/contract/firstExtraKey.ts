import type { SchemaNode } from './contractSet.js';

type SchemaObject = { [keyword: string]: unknown };
type Resolve = (ref: string) => SchemaNode | undefined;

interface Walk {
  readonly resolve: Resolve;
  /** Treat open models (additionalProperties true or absent) as closed: what a gateway that misreads them does. */
  readonly closeOpenModels: boolean;
}

/** Nesting levels walked before giving up; real payloads are far shallower. */
const MAX_DEPTH = 256;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function deref(node: SchemaNode, resolve: Resolve): SchemaNode {
  let current = node;
  for (let hop = 0; hop < 32; hop++) {
    if (typeof current === 'boolean' || typeof current['$ref'] !== 'string') return current;
    const target = resolve(current['$ref']);
    if (target === undefined) return true;
    if (typeof target === 'boolean') return target;
    const { $ref: _ignored, ...siblings } = current;
    current = { ...siblings, ...target };
  }
  return true;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typeMatches(value: unknown, node: SchemaNode): boolean {
  if (typeof node === 'boolean') return node;
  const actual = jsonType(value);
  const declared = node['type'];
  if (declared !== undefined) {
    const types = Array.isArray(declared) ? declared : [declared];
    return types.includes(actual) || (actual === 'integer' && types.includes('number'));
  }
  if ('const' in node) return JSON.stringify(node['const']) === JSON.stringify(value);
  if (Array.isArray(node['enum'])) return node['enum'].some((v) => JSON.stringify(v) === JSON.stringify(value));
  if ('properties' in node || 'additionalProperties' in node) return actual === 'object';
  if ('items' in node || 'prefixItems' in node) return actual === 'array';
  return true;
}

/** Scores how well an object value fits an object branch: discriminator consts first, then required keys. */
function fitScore(value: Record<string, unknown>, node: SchemaObject, resolve: Resolve): number {
  let score = 0;
  const properties = isPlainObject(node['properties']) ? node['properties'] : {};
  for (const [name, raw] of Object.entries(properties)) {
    const property = deref(raw as SchemaNode, resolve);
    if (typeof property === 'boolean' || !Object.hasOwn(value, name)) continue;
    const single = 'const' in property ? [property['const']] : Array.isArray(property['enum']) && property['enum'].length === 1 ? property['enum'] : undefined;
    if (single) score += JSON.stringify(single[0]) === JSON.stringify(value[name]) ? 4 : -8;
  }
  const required = Array.isArray(node['required']) ? (node['required'] as unknown[]) : [];
  if (required.every((name) => typeof name === 'string' && Object.hasOwn(value, name))) score += 1;
  return score;
}

function pickBranch(value: unknown, branches: readonly SchemaNode[], resolve: Resolve): SchemaNode | undefined {
  const candidates = branches.map((branch) => deref(branch, resolve)).filter((branch) => typeMatches(value, branch));
  if (candidates.length <= 1 || !isPlainObject(value)) return candidates[0];
  let best = candidates[0];
  let bestScore = -Infinity;
  for (const candidate of candidates) {
    if (typeof candidate === 'boolean') continue;
    const score = fitScore(value, candidate, resolve);
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

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
