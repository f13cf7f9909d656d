import type { SchemaNode } from './contractSet.js';
import { copyJson } from '../jsonCopy.js';
import { deref, isPlainObject, pickBranch, type Resolve, type SchemaObject } from './schemaBranches.js';

const MAX_DEPTH = 64;

/**
 * Fits one value at a nesting depth. Only objects and arrays are ever changed: a scalar comes out as it went in.
 * Compiled once per schema node and document (documents do not change), so shaping a frame follows plans instead of
 * reading keywords, `$ref`s and branch lists again.
 */
type Shaper = (value: unknown, depth: number) => unknown;

/** True when the shaper would give the value back as it is; allocates nothing (no member is shaped to find out). */
type Fits = (value: unknown, depth: number) => boolean;

/** The shaper of a schema node and its check. */
interface Plan {
  readonly shape: Shaper;
  readonly fits: Fits;
}

/** The value a required field gets when the producer left it out, made fresh at each call. */
type AbsentFactory = (depth: number) => unknown;

const IDENTITY: Plan = { shape: (value) => value, fits: () => true };

const compiled = new WeakMap<Resolve, WeakMap<SchemaObject, Plan>>();

/** The plan of `raw` in the document `resolve` reads: compiled on first use, children compiled when first reached. */
function planOf(raw: SchemaNode, resolve: Resolve): Plan {
  if (typeof raw === 'boolean') return IDENTITY;
  let byNode = compiled.get(resolve);
  if (!byNode) compiled.set(resolve, (byNode = new WeakMap()));
  let plan = byNode.get(raw);
  // Compiling never reaches a child (children compile when first visited), so a recursive schema cannot loop here.
  if (!plan) byNode.set(raw, (plan = compile(deref(raw, resolve), resolve)));
  return plan;
}

/** A child's plan, compiled when the child is first reached (never for parts of a schema no value visits). */
function lazyPlan(raw: SchemaNode, resolve: Resolve): Plan {
  let plan: Plan | undefined;
  const resolved = (): Plan => (plan ??= planOf(raw, resolve));
  return { shape: (value, depth) => resolved().shape(value, depth), fits: (value, depth) => resolved().fits(value, depth) };
}

const isContainer = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** A default or const as a fresh value: only containers need copying. */
function constantFactory(value: unknown): AbsentFactory {
  return isContainer(value) ? () => copyJson(value) : () => value;
}

/** How a required field left out is filled, or undefined when its type has no empty value (an integer, a string). */
function absentFactory(raw: SchemaNode, resolve: Resolve): AbsentFactory | undefined {
  const node = deref(raw, resolve);
  if (typeof node === 'boolean') return undefined;
  if ('default' in node) return constantFactory(node['default']);
  if ('const' in node) return constantFactory(node['const']);
  const branches = Array.isArray(node['anyOf']) ? node['anyOf'] : Array.isArray(node['oneOf']) ? node['oneOf'] : undefined;
  const nullable = branches?.some((branch) => {
    const target = deref(branch as SchemaNode, resolve);
    return typeof target !== 'boolean' && target['type'] === 'null';
  });
  if (nullable) return () => null;
  const type = node['type'];
  if (type === 'array') return () => [];
  if (type === 'object' || 'properties' in node) {
    const plan = lazyPlan(node, resolve);
    return (depth) => plan.shape({}, depth + 1);
  }
  return undefined;
}

/** The value a required field gets when the producer left it out: its default, else the empty value of its type. */
export function absentValue(raw: SchemaNode, resolve: Resolve, depth = 0): unknown {
  return absentFactory(raw, resolve)?.(depth);
}

interface PropertyPlan {
  readonly name: string;
  readonly plan: Plan;
  /** Set for a required property whose absence shaping fills. */
  readonly absent: AbsentFactory | undefined;
}

/** Shapes a member: scalars are given back without a call. */
const member = (plan: Plan, value: unknown, depth: number): unknown => (isContainer(value) ? plan.shape(value, depth) : value);

/** True when shaping a member gives it back as it is. */
const memberFits = (plan: Plan, value: unknown, depth: number): boolean => !isContainer(value) || plan.fits(value, depth);

interface ObjectPlan {
  readonly shape: (value: Record<string, unknown>, depth: number) => Record<string, unknown>;
  readonly fits: (value: Record<string, unknown>, depth: number) => boolean;
}

function compileObject(node: SchemaObject, resolve: Resolve): ObjectPlan {
  const entries = isPlainObject(node['properties']) ? Object.entries(node['properties'] as Record<string, SchemaNode>) : [];
  const required = new Set(Array.isArray(node['required']) ? (node['required'] as string[]) : []);
  const properties: PropertyPlan[] = entries.map(([name, schema]) => ({ name, plan: lazyPlan(schema, resolve), absent: required.has(name) ? absentFactory(schema, resolve) : undefined }));
  const declared = new Map(properties.map((property, index) => [property.name, index]));
  const fillable = properties.filter((property) => property.absent !== undefined);
  const additional = node['additionalProperties'];
  const closed = additional === false;
  const extraPlan = isPlainObject(additional) ? lazyPlan(additional as SchemaNode, resolve) : undefined;

  /**
   * True when shaping would give `value` back unchanged: declared keys in declaration order before any extra, every
   * member already shaped, no extra a closed model drops, no required field to fill. Allocates nothing (members are
   * checked, not shaped) and stops at the first difference: a value the gateway already fitted (a replayed event, a
   * stored row) passes as it is.
   */
  const names = properties.map((property) => property.name);
  const alreadyShaped = (value: Record<string, unknown>, depth: number): boolean => {
    let lastDeclared = -1;
    let inExtras = false;
    let seen = 0;
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      const item = value[key];
      // Keys mostly come in declaration order: the next declared name is tried before the map.
      const index = names[lastDeclared + 1] === key ? lastDeclared + 1 : declared.get(key);
      if (index !== undefined) {
        if (inExtras || index < lastDeclared) return false;
        lastDeclared = index;
        seen += 1;
        if (!memberFits((properties[index] as PropertyPlan).plan, item, depth + 1)) return false;
        continue;
      }
      if (closed) return false;
      inExtras = true;
      if (extraPlan && !memberFits(extraPlan, item, depth + 1)) return false;
    }
    if (seen === properties.length) return true;
    for (const property of fillable) if (!Object.hasOwn(value, property.name)) return false;
    return true;
  };
  const build = declaredPartBuilder(properties);

  const shape = (value: Record<string, unknown>, depth: number): Record<string, unknown> => {
    if (alreadyShaped(value, depth)) return value;
    // Declaration order first, as Pydantic serialises a model; then the extras an open model keeps.
    const shaped = build(value, depth);
    if (closed) return shaped;
    for (const key in value) {
      if (!Object.hasOwn(value, key) || declared.has(key)) continue;
      shaped[key] = extraPlan ? member(extraPlan, value[key], depth + 1) : value[key];
    }
    return shaped;
  };
  return { shape, fits: alreadyShaped };
}

type DeclaredPartBuilder = (value: Record<string, unknown>, depth: number) => Record<string, unknown>;

/**
 * Builds the declared part of a shaped object: each declared member sent, shaped, or the absent value of a required
 * one, in declaration order. Generated as straight-line code with one literal store per property: V8 turns an object
 * grown through a loop of computed-key stores into a hash-table (dictionary) object past a dozen properties, which
 * then costs several times more to validate, walk and serialise. Property names are embedded as JSON string literals.
 */
function declaredPartBuilder(properties: readonly PropertyPlan[]): DeclaredPartBuilder {
  // A `__proto__` store would set the prototype: such a model keeps the loop (it is never on a hot path).
  if (properties.some((property) => property.name === '__proto__')) {
    return (value, depth) => {
      const shaped: Record<string, unknown> = {};
      for (const property of properties) {
        if (Object.hasOwn(value, property.name)) shaped[property.name] = member(property.plan, value[property.name], depth + 1);
        else if (property.absent) shaped[property.name] = property.absent(depth);
      }
      return shaped;
    };
  }
  const lines = properties.map((property, index) => {
    const name = JSON.stringify(property.name);
    const sent = `if (hasOwn(value, ${name})) shaped[${name}] = member(plans[${index}].plan, value[${name}], depth + 1);`;
    return property.absent ? `${sent} else shaped[${name}] = plans[${index}].absent(depth);` : sent;
  });
  const factory = new Function('plans', 'member', 'hasOwn', `return function build(value, depth) {\n  const shaped = {};\n  ${lines.join('\n  ')}\n  return shaped;\n};`) as (
    plans: readonly PropertyPlan[],
    memberOf: typeof member,
    hasOwn: typeof Object.hasOwn,
  ) => DeclaredPartBuilder;
  return factory(properties, member, Object.hasOwn);
}

interface ItemsPlan {
  /** The array itself when every item comes out of shaping unchanged, else a shaped copy. */
  readonly shape: (items: unknown[], depth: number) => unknown[];
  readonly fits: (items: unknown[], depth: number) => boolean;
}

function compileItems(schema: SchemaNode, resolve: Resolve): ItemsPlan {
  const item = lazyPlan(schema, resolve);
  const fits = (items: unknown[], depth: number): boolean => {
    for (const each of items) if (!memberFits(item, each, depth + 1)) return false;
    return true;
  };
  return { fits, shape: (items, depth) => (fits(items, depth) ? items : items.map((each) => member(item, each, depth + 1))) };
}

const inertNodes = new WeakMap<Resolve, WeakMap<SchemaObject, boolean>>();

/**
 * True when shaping can change no value at all: no declared property (whose order, absence or closing could
 * change a value), nothing closed, and only such schemas below. A free-form payload (`dict[str, Any]`, a JSON value)
 * is one: shaping it then costs no walk. A schema reaching itself is assumed inert while it is examined.
 */
function inert(raw: SchemaNode, resolve: Resolve, visiting: Set<SchemaObject> = new Set()): boolean {
  const node = deref(raw, resolve);
  if (typeof node === 'boolean') return true;
  let known = inertNodes.get(resolve);
  if (!known) inertNodes.set(resolve, (known = new WeakMap()));
  const memo = known.get(node);
  if (memo !== undefined) return memo;
  if (visiting.has(node)) return true;
  visiting.add(node);
  const below = (child: unknown): boolean => inert(child as SchemaNode, resolve, visiting);
  let result: boolean;
  const branches = Array.isArray(node['anyOf']) ? node['anyOf'] : Array.isArray(node['oneOf']) ? node['oneOf'] : undefined;
  if (branches) result = branches.every(below);
  else if (Array.isArray(node['allOf'])) result = node['allOf'].every(below);
  else {
    const properties = node['properties'];
    const additional = node['additionalProperties'];
    const items = node['items'];
    result =
      !(isPlainObject(properties) && Object.keys(properties).length > 0) &&
      additional !== false &&
      (!isPlainObject(additional) || below(additional)) &&
      (items === undefined || Array.isArray(items) || below(items));
  }
  visiting.delete(node);
  // A false answer never rests on an assumption; a true one is final only where no assumption was open.
  if (!result || visiting.size === 0) known.set(node, result);
  return result;
}

/** A value shaping gives back untouched whatever the schema: a scalar, or a container nested too deep. */
const untouched = (value: unknown, depth: number): boolean => !isContainer(value) || depth > MAX_DEPTH;

function compile(node: SchemaNode, resolve: Resolve): Plan {
  if (typeof node === 'boolean' || inert(node, resolve)) return IDENTITY;
  for (const combinator of ['anyOf', 'oneOf'] as const) {
    const branches = node[combinator];
    if (!Array.isArray(branches)) continue;
    const branchOf = (value: unknown): SchemaNode | undefined => pickBranch(value, branches as SchemaNode[], resolve);
    return {
      shape: (value, depth) => {
        if (untouched(value, depth)) return value;
        const branch = branchOf(value);
        return branch === undefined ? value : planOf(branch, resolve).shape(value, depth + 1);
      },
      fits: (value, depth) => {
        if (untouched(value, depth)) return true;
        const branch = branchOf(value);
        return branch === undefined || planOf(branch, resolve).fits(value, depth + 1);
      },
    };
  }
  if (Array.isArray(node['allOf'])) {
    const parts = (node['allOf'] as SchemaNode[]).map((part) => lazyPlan(part, resolve));
    return {
      shape: (value, depth) => {
        if (untouched(value, depth)) return value;
        let current: unknown = value;
        for (const part of parts) current = part.shape(current, depth + 1);
        return current;
      },
      // A part that changes a value gives a new object, which no later part turns back into the value itself.
      fits: (value, depth) => untouched(value, depth) || parts.every((part) => part.fits(value, depth + 1)),
    };
  }
  const object = 'properties' in node || 'additionalProperties' in node || node['type'] === 'object' ? compileObject(node, resolve) : undefined;
  const items = node['items'] !== undefined && !Array.isArray(node['items']) ? compileItems(node['items'] as SchemaNode, resolve) : undefined;
  if (!object && !items) return IDENTITY;
  return {
    shape: (value, depth) => {
      if (untouched(value, depth)) return value;
      if (Array.isArray(value)) return items ? items.shape(value, depth) : value;
      return object ? object.shape(value as Record<string, unknown>, depth) : value;
    },
    fits: (value, depth) => {
      if (untouched(value, depth)) return true;
      if (Array.isArray(value)) return items ? items.fits(value, depth) : true;
      return object ? object.fits(value as Record<string, unknown>, depth) : true;
    },
  };
}

/**
 * Fits a value the gateway built to the declared outbound schema the way a Pydantic model serialises: required
 * fields the producer left out get their default (or the empty value of their type, as `default_factory` would),
 * keys a closed model does not declare are left out, and declared fields come in declaration order. A value that
 * cannot be fitted is returned as it is, for the contract check to report. This is what lets one handler answer
 * both a narrow document (few required fields) and the full one (every serialised field required).
 */
export function shape(value: unknown, raw: SchemaNode, resolve: Resolve, depth = 0): unknown {
  if (untouched(value, depth)) return value;
  return planOf(raw, resolve).shape(value, depth);
}
