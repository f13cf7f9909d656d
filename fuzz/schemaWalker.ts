import type { JsonSchema, JsonType, SchemaResolver } from '../core/index.js';
import { expandSchema } from './expandSchema.js';
import { type FlatSchema, isEmptySchema, schemaForKey } from './flatSchema.js';
import type { SchemaMemo } from './schemaMemo.js';

/** Why a schema produced nothing: `exhausted` when recursion was cut at `maxDepth` (a deeper bound may succeed), else `never`. */
export interface Failure {
  fail: 'exhausted' | 'never';
  reasons: string[];
}

export type Walked<T> = { value: T } | Failure;

export function never(reason: string): Failure {
  return { fail: 'never', reasons: [reason] };
}

/** Failures of several branches gathered into one: exhausted as soon as one branch was. */
export class Failures {
  exhausted: boolean;
  readonly reasons: string[];

  constructor(reasons: readonly string[] = [], exhausted = false) {
    this.reasons = [...reasons];
    this.exhausted = exhausted;
  }

  add(failure: Failure): void {
    this.reasons.push(...failure.reasons);
    this.exhausted ||= failure.fail === 'exhausted';
  }

  result(): Failure {
    return { fail: this.exhausted ? 'exhausted' : 'never', reasons: this.reasons };
  }
}

export type LeafType = 'null' | 'boolean' | 'integer' | 'number' | 'string';

/** What an interpreter sees of an array schema; items are walked on demand, each call a fresh walk. */
export interface ArrayPlan<T> {
  flat: FlatSchema;
  min: number;
  /** `maxItems`, or Infinity. */
  max: number;
  /** The value of item `index`: its prefix item, or the schema of the items past the prefix (`items: false` never). */
  item(index: number): Walked<T>;
}

/** What an interpreter sees of an object schema; values are walked on demand. */
export interface ObjectPlan<T> {
  flat: FlatSchema;
  /** Declared keys in order: `properties` first, then required keys no property declares. */
  keys: ReadonlyArray<{ key: string; required: boolean }>;
  /** The value of a declared key; failure reasons name the key. */
  member(key: string): Walked<T>;
  /** A value of `schema` at this depth (pattern properties, `additionalProperties`). */
  walk(schema: JsonSchema): Walked<T>;
  /** Declared, forbidden or required: an undeclared key must not be one of these. */
  taken(key: string): boolean;
  /** No declared keys and an `additionalProperties` schema that constrains something: a map. */
  isMap: boolean;
}

/**
 * What a walk builds at each kind of node. The walker takes schemas apart (`$ref`, `allOf`, `anyOf`, `oneOf`,
 * recursion bounded by `maxDepth`) and hands each piece to the interpreter; the interpreter decides what a
 * value of that piece is (a fast-check arbitrary, a witness value) and which children to walk.
 */
export interface SchemaInterpreter<T> {
  /** How many times a recursive `$ref` may re-enter itself along one path. */
  readonly maxDepth: number;
  /** A value of a schema that constrains nothing (`{}`, `true`). */
  anything(): T;
  /** One result from what the alternatives of `schema` gave (`exclusive`: a `oneOf` took part, so a value may match several). */
  alternatives(schema: JsonSchema, found: T[], failures: Failures, exclusive: boolean): Walked<T>;
  /** A value the flat schema fixes by itself (enum, const, a default), or undefined to walk its types. */
  fixed(flat: FlatSchema): Walked<T> | undefined;
  /** The types to walk, in order; undefined for any value. */
  typeOrder(flat: FlatSchema): readonly string[] | undefined;
  /** One result from the values of each type, walked lazily in `typeOrder`. */
  types(flat: FlatSchema, byType: Iterable<Walked<T>>): Walked<T>;
  leaf(type: LeafType, flat: FlatSchema): Walked<T>;
  array(plan: ArrayPlan<T>): Walked<T>;
  object(plan: ObjectPlan<T>): Walked<T>;
}

/** Walks `schema` with `interpreter`; `$ref`s are followed through `resolver`; `memo` keeps expansions for the other walks of a run. */
export function walkSchema<T>(schema: JsonSchema, interpreter: SchemaInterpreter<T>, resolver: SchemaResolver, memo?: SchemaMemo): Walked<T> {
  return new SchemaWalker(interpreter, resolver, memo?.resolver === resolver ? memo : undefined).walk(schema, []);
}

class SchemaWalker<T> {
  constructor(
    private readonly interpreter: SchemaInterpreter<T>,
    private readonly resolver: SchemaResolver,
    private readonly memo: SchemaMemo | undefined,
  ) {}

  walk(schema: JsonSchema, refStack: readonly string[]): Walked<T> {
    const interpreter = this.interpreter;
    if (isEmptySchema(schema)) return { value: interpreter.anything() };
    const expansion = this.memo
      ? this.memo.expansion(schema, interpreter.maxDepth, refStack)
      : expandSchema(schema, { resolver: this.resolver, maxDepth: interpreter.maxDepth }, refStack);
    const failures = new Failures(expansion.dropped, expansion.exhausted);
    const found: T[] = [];
    for (const alternative of expansion.alternatives) {
      const walked = this.walkFlat(alternative.flat, alternative.refStack);
      if ('value' in walked) found.push(walked.value);
      else failures.add(walked);
    }
    return interpreter.alternatives(schema, found, failures, expansion.exclusive);
  }

  private walkFlat(flat: FlatSchema, refStack: readonly string[]): Walked<T> {
    const fixed = this.interpreter.fixed(flat);
    if (fixed !== undefined) return fixed;
    const order = this.interpreter.typeOrder(flat);
    const byType = order === undefined ? [{ value: this.interpreter.anything() }] : this.walkTypes(order, flat, refStack);
    return this.interpreter.types(flat, byType);
  }

  private *walkTypes(order: readonly string[], flat: FlatSchema, refStack: readonly string[]): Iterable<Walked<T>> {
    for (const type of order) yield this.walkType(type, flat, refStack);
  }

  private walkType(type: string, flat: FlatSchema, refStack: readonly string[]): Walked<T> {
    switch (type as JsonType) {
      case 'null':
      case 'boolean':
      case 'integer':
      case 'number':
      case 'string':
        return this.interpreter.leaf(type as LeafType, flat);
      case 'array':
        return this.walkArray(flat, refStack);
      case 'object':
        return this.interpreter.object(this.objectPlan(flat, refStack));
      default:
        return never(`unknown type ${JSON.stringify(type)}`);
    }
  }

  private walkArray(flat: FlatSchema, refStack: readonly string[]): Walked<T> {
    const min = flat.minItems ?? 0;
    if (flat.maxItems !== undefined && min > flat.maxItems) return never(`minItems ${min} > maxItems ${flat.maxItems}`);
    const item = (index: number): Walked<T> => {
      const prefixed = flat.prefixItems[index];
      if (prefixed !== undefined) return this.walk(prefixed, refStack);
      return flat.items === false ? never('items: false') : this.walk(flat.items ?? true, refStack);
    };
    return this.interpreter.array({ flat, min, max: flat.maxItems ?? Infinity, item });
  }

  private objectPlan(flat: FlatSchema, refStack: readonly string[]): ObjectPlan<T> {
    const keys = [...flat.properties.keys()].map((key) => ({ key, required: flat.required.has(key) }));
    for (const key of flat.required) if (!flat.properties.has(key)) keys.push({ key, required: true });
    const additional = flat.additional;
    return {
      flat,
      keys,
      member: (key) => {
        const walked = this.walk(schemaForKey(flat, key), refStack);
        return 'value' in walked ? walked : { fail: walked.fail, reasons: walked.reasons.map((r) => `${key}: ${r}`) };
      },
      walk: (schema) => this.walk(schema, refStack),
      taken: (key) => flat.properties.has(key) || flat.forbidden.has(key) || flat.required.has(key),
      isMap: flat.properties.size === 0 && flat.patternProperties.size === 0 && additional !== undefined && additional !== false && !isEmptySchema(additional),
    };
  }
}
