import type { JsonSchema, JsonSchemaObject, SchemaResolver } from '../core/index.js';
import { ANNOTATIONS, emptyFlat, flatOf, type FlatSchema, mergeFlat } from './flatSchema.js';

/** Distributing `allOf` over `anyOf` multiplies alternatives; past this many, the rest are not explored. */
export const MAX_ALTERNATIVES = 64;

export interface Alternative {
  flat: FlatSchema;
  /** `$ref`s followed from the root down to (and including) this node: the recursion bound counts repeats here. */
  refStack: readonly string[];
}

export interface Expansion {
  alternatives: Alternative[];
  /** True when a branch was cut because a recursive `$ref` reached `maxDepth`. */
  exhausted: boolean;
  /** Why branches were dropped as unsatisfiable. */
  dropped: string[];
  /** True when a `oneOf` took part: a value may match several alternatives and then be invalid. */
  exclusive: boolean;
}

export interface ExpandOptions {
  resolver: SchemaResolver;
  /** How many times a `$ref` may re-enter itself along one path. */
  maxDepth: number;
}

function countOf(stack: readonly string[], ref: string): number {
  let n = 0;
  for (const r of stack) if (r === ref) n++;
  return n;
}

function merged(stackA: readonly string[], stackB: readonly string[], base: readonly string[]): readonly string[] {
  return stackB.length === base.length ? stackA : [...stackA, ...stackB.slice(base.length)];
}

/**
 * The alternatives a schema allows, each a flat conjunction: `$ref`s resolved, `allOf` merged (closed object
 * members included), `anyOf`/`oneOf` distributed. Contradictory combinations are dropped with a reason.
 */
export function expandSchema(schema: JsonSchema, options: ExpandOptions, refStack: readonly string[] = []): Expansion {
  return expand(schema, options, refStack, new Set(), { deepest: 0 });
}

/**
 * The largest number of times a `$ref` was already on the stack when the expansion reached it: the expansion is
 * the same for every `maxDepth` at or above it (no recursion bound was met on the way).
 */
interface DepthReached {
  deepest: number;
}

/** {@link expandSchema}, and the deepest recursion it met (see {@link SchemaMemo}). */
export function expandSchemaReaching(schema: JsonSchema, options: ExpandOptions, refStack: readonly string[]): { expansion: Expansion; deepest: number } {
  const reached = { deepest: 0 };
  const expansion = expand(schema, options, refStack, new Set(), reached);
  return { expansion, deepest: reached.deepest };
}

function expand(schema: JsonSchema, options: ExpandOptions, refStack: readonly string[], local: ReadonlySet<string>, reached: DepthReached): Expansion {
  const result: Expansion = { alternatives: [], exhausted: false, dropped: [], exclusive: false };
  if (schema === false) return { ...result, dropped: ['the schema is `false`'] };
  if (schema === true) return { ...result, alternatives: [{ flat: emptyFlat(), refStack }] };
  if (typeof schema.$ref === 'string') return expandRef(schema, schema.$ref, options, refStack, local, reached);
  const factors: Expansion[] = [{ ...result, alternatives: [{ flat: flatOf(schema), refStack }] }];
  for (const member of schema.allOf ?? []) factors.push(expand(member, options, refStack, local, reached));
  if (schema['if'] !== undefined && (schema['then'] !== undefined || schema['else'] !== undefined)) {
    // if/then/else is the union of (if ∧ then) and (¬if ∧ else).
    const condition = schema['if'] as JsonSchema;
    const taken = expand({ allOf: [condition, (schema['then'] as JsonSchema | undefined) ?? true] }, options, refStack, local, reached);
    const skipped = expand({ allOf: [{ not: condition }, (schema['else'] as JsonSchema | undefined) ?? true] }, options, refStack, local, reached);
    factors.push({ alternatives: [...taken.alternatives, ...skipped.alternatives], exhausted: taken.exhausted || skipped.exhausted, dropped: [...taken.dropped, ...skipped.dropped], exclusive: taken.exclusive || skipped.exclusive });
  }
  for (const [keyword, branches] of [['anyOf', schema.anyOf], ['oneOf', schema.oneOf]] as const) {
    if (!branches) continue;
    const union: Expansion = { ...result, alternatives: [], dropped: [], exclusive: keyword === 'oneOf' && branches.length > 1 };
    for (const branch of branches) {
      const part = expand(branch, options, refStack, local, reached);
      union.alternatives.push(...part.alternatives);
      union.exhausted ||= part.exhausted;
      union.exclusive ||= part.exclusive;
      union.dropped.push(...part.dropped);
    }
    factors.push(union);
  }
  return product(factors, refStack);
}

function expandRef(node: JsonSchemaObject, ref: string, options: ExpandOptions, refStack: readonly string[], local: ReadonlySet<string>, reached: DepthReached): Expansion {
  const empty: Expansion = { alternatives: [], exhausted: false, dropped: [], exclusive: false };
  if (local.has(ref)) return { ...empty, dropped: [`${ref} refers to itself without going through an object or array`] };
  const count = countOf(refStack, ref);
  if (count > reached.deepest) reached.deepest = count;
  if (count > options.maxDepth) return { ...empty, exhausted: true };
  const target = options.resolver.resolve(ref);
  if (target === undefined) return { ...empty, dropped: [`$ref "${ref}" does not resolve`] };
  const stack = [...refStack, ref];
  const inner = new Set(local).add(ref);
  const siblings = Object.fromEntries(Object.entries(node).filter(([key]) => key !== '$ref' && !ANNOTATIONS.has(key)));
  if (Object.keys(siblings).length === 0) return expand(target, options, stack, inner, reached);
  return product([expand(target, options, stack, inner, reached), expand(siblings as JsonSchemaObject, options, stack, inner, reached)], refStack);
}

function product(factors: Expansion[], base: readonly string[]): Expansion {
  let current: Alternative[] = [{ flat: emptyFlat(), refStack: base }];
  const out: Expansion = { alternatives: [], exhausted: false, dropped: [], exclusive: false };
  for (const factor of factors) {
    out.exhausted ||= factor.exhausted;
    out.exclusive ||= factor.exclusive;
    out.dropped.push(...factor.dropped);
    const next: Alternative[] = [];
    for (const left of current) {
      for (const right of factor.alternatives) {
        if (next.length >= MAX_ALTERNATIVES) break;
        const result = mergeFlat(left.flat, right.flat);
        if ('never' in result) out.dropped.push(result.never);
        else next.push({ flat: result.flat, refStack: merged(left.refStack, right.refStack, base) });
      }
    }
    current = next;
    if (current.length === 0) break;
  }
  out.alternatives = current;
  return out;
}
