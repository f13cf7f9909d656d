/** The straightforward interpretive shaper the gateway used before shapers were compiled: the oracle of the compiled one. */
import type { SchemaNode } from '../../../gateway/core/contract/contractSet.js';
import { deref, isPlainObject, pickBranch, type Resolve, type SchemaObject } from '../../../gateway/core/contract/schemaBranches.js';

const MAX_DEPTH = 64;

/** The value a required field gets when the producer left it out: its default, else the empty value of its type. */
export function absentValue(raw: SchemaNode, resolve: Resolve, depth = 0): unknown {
  const node = deref(raw, resolve);
  if (typeof node === 'boolean') return undefined;
  if ('default' in node) return freshCopy(node['default']);
  if ('const' in node) return freshCopy(node['const']);
  const branches = Array.isArray(node['anyOf']) ? node['anyOf'] : Array.isArray(node['oneOf']) ? node['oneOf'] : undefined;
  const nullable = branches?.some((branch) => {
    const target = deref(branch as SchemaNode, resolve);
    return typeof target !== 'boolean' && target['type'] === 'null';
  });
  if (nullable) return null;
  const type = node['type'];
  if (type === 'array') return [];
  if (type === 'object' || 'properties' in node) return shape({}, node, resolve, depth + 1);
  return undefined;
}

/** What shaping an object against one schema node needs, read once per node. */
interface ObjectPlan {
  readonly properties: ReadonlyArray<readonly [string, SchemaNode]>;
  /** Each declared name's position in `properties`. */
  readonly declared: ReadonlyMap<string, number>;
  readonly required: ReadonlySet<string>;
  readonly additional: unknown;
}

const objectPlans = new WeakMap<SchemaObject, ObjectPlan>();

function objectPlan(node: SchemaObject): ObjectPlan {
  let plan = objectPlans.get(node);
  if (!plan) {
    const properties = isPlainObject(node['properties']) ? Object.entries(node['properties'] as Record<string, SchemaNode>) : [];
    plan = {
      properties,
      declared: new Map(properties.map(([name], index) => [name, index])),
      required: new Set(Array.isArray(node['required']) ? (node['required'] as string[]) : []),
      additional: node['additionalProperties'],
    };
    objectPlans.set(node, plan);
  }
  return plan;
}

/** A default or const as a fresh value: only containers need copying. */
function freshCopy(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}

/**
 * True when shaping `value` would give it back unchanged: declared keys in declaration order before any extra, every
 * member already shaped, no extra a closed model drops, no required field to fill. Allocates nothing, stops at the
 * first difference: a value the gateway already fitted (a replayed event, a stored row) is passed on as it is.
 */
function alreadyShaped(value: Record<string, unknown>, plan: ObjectPlan, resolve: Resolve, depth: number): boolean {
  let lastDeclared = -1;
  let inExtras = false;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item = value[key];
    const index = plan.declared.get(key);
    if (index !== undefined) {
      if (inExtras || index < lastDeclared) return false;
      lastDeclared = index;
      if (shape(item, (plan.properties[index] as readonly [string, SchemaNode])[1], resolve, depth + 1) !== item) return false;
      continue;
    }
    if (plan.additional === false) return false;
    inExtras = true;
    if (isPlainObject(plan.additional) && shape(item, plan.additional as SchemaNode, resolve, depth + 1) !== item) return false;
  }
  for (const name of plan.required) {
    if (Object.hasOwn(value, name)) continue;
    const index = plan.declared.get(name);
    if (index !== undefined && absentValue((plan.properties[index] as readonly [string, SchemaNode])[1], resolve, depth) !== undefined) return false;
  }
  return true;
}

function shapeObject(value: Record<string, unknown>, node: SchemaObject, resolve: Resolve, depth: number): Record<string, unknown> {
  const plan = objectPlan(node);
  if (alreadyShaped(value, plan, resolve, depth)) return value;
  const { properties, declared, required, additional } = plan;
  const shaped: Record<string, unknown> = {};
  // Declaration order first, as Pydantic serialises a model; then the extras an open model keeps.
  for (const [name, schema] of properties) {
    if (Object.hasOwn(value, name)) shaped[name] = shape(value[name], schema, resolve, depth + 1);
    else if (required.has(name)) {
      const absent = absentValue(schema, resolve, depth);
      if (absent !== undefined) shaped[name] = absent;
    }
  }
  if (additional === false) return shaped;
  for (const key in value) {
    if (!Object.hasOwn(value, key) || declared.has(key)) continue;
    shaped[key] = isPlainObject(additional) ? shape(value[key], additional as SchemaNode, resolve, depth + 1) : value[key];
  }
  return shaped;
}

/**
 * Fits a value the gateway built to the declared outbound schema the way a Pydantic model serialises: required
 * fields the producer left out get their default (or the empty value of their type, as `default_factory` would),
 * keys a closed model does not declare are left out, and declared fields come in declaration order. A value that
 * cannot be fitted is returned as it is, for the contract check to report. This is what lets one handler answer
 * both a narrow document (few required fields) and the full one (every serialised field required).
 */
export function shape(value: unknown, raw: SchemaNode, resolve: Resolve, depth = 0): unknown {
  // Only objects and arrays are ever changed: a scalar comes out as it went in, whatever the schema says.
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return value;
  const node = deref(raw, resolve);
  if (typeof node === 'boolean') return value;
  for (const combinator of ['anyOf', 'oneOf'] as const) {
    const branches = node[combinator];
    if (!Array.isArray(branches)) continue;
    const branch = pickBranch(value, branches as SchemaNode[], resolve);
    return branch === undefined ? value : shape(value, branch, resolve, depth + 1);
  }
  if (Array.isArray(node['allOf'])) return (node['allOf'] as SchemaNode[]).reduce<unknown>((current, part) => shape(current, part, resolve, depth + 1), value);
  if (isPlainObject(value) && ('properties' in node || 'additionalProperties' in node || node['type'] === 'object')) return shapeObject(value, node, resolve, depth);
  if (Array.isArray(value) && node['items'] !== undefined && !Array.isArray(node['items'])) return shapeItems(value, node['items'] as SchemaNode, resolve, depth);
  return value;
}

/** The array itself when every item comes out of shaping unchanged, else a shaped copy. */
function shapeItems(items: unknown[], schema: SchemaNode, resolve: Resolve, depth: number): unknown[] {
  let index = 0;
  while (index < items.length && shape(items[index], schema, resolve, depth + 1) === items[index]) index += 1;
  return index === items.length ? items : items.map((item) => shape(item, schema, resolve, depth + 1));
}
