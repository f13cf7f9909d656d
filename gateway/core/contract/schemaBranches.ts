import type { SchemaNode } from './contractSet.js';

/** Reading schemas the way Pydantic matches values: `$ref` chains, JSON types and the `anyOf` branch a value fits. */

export type SchemaObject = { [keyword: string]: unknown };
export type Resolve = (ref: string) => SchemaNode | undefined;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Per resolver (one per document), each `$ref` node's target merged with its siblings: documents do not change. */
const dereferenced = new WeakMap<Resolve, WeakMap<SchemaObject, SchemaNode>>();

export function deref(node: SchemaNode, resolve: Resolve): SchemaNode {
  if (typeof node === 'boolean' || typeof node['$ref'] !== 'string') return node;
  let byNode = dereferenced.get(resolve);
  if (!byNode) dereferenced.set(resolve, (byNode = new WeakMap()));
  let target = byNode.get(node);
  if (target === undefined) byNode.set(node, (target = followRefs(node, resolve)));
  return target;
}

function followRefs(node: SchemaNode, resolve: Resolve): SchemaNode {
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

export function typeMatches(value: unknown, node: SchemaNode): boolean {
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

const dereferencedBranches = new WeakMap<Resolve, WeakMap<readonly SchemaNode[], readonly SchemaNode[]>>();

function branchTargets(branches: readonly SchemaNode[], resolve: Resolve): readonly SchemaNode[] {
  let byList = dereferencedBranches.get(resolve);
  if (!byList) dereferencedBranches.set(resolve, (byList = new WeakMap()));
  let targets = byList.get(branches);
  if (!targets) byList.set(branches, (targets = branches.map((branch) => deref(branch, resolve))));
  return targets;
}

export function pickBranch(value: unknown, branches: readonly SchemaNode[], resolve: Resolve): SchemaNode | undefined {
  const candidates = branchTargets(branches, resolve).filter((branch) => typeMatches(value, branch));
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
