import type { ErrorObject } from 'ajv';
import { defineKey, dottedPath, editAt, formatPointer, isJsonObject, type JsonPath, type JsonSchema, type JsonValue, type SchemaResolver } from '../core/index.js';
import { type FlatSchema, matchingPatterns } from './flatSchema.js';
import { minimalValue } from './fromSchema.js';
import { schemaCheckFor } from './schemaCheck.js';
import { walkValue } from './walkValue.js';

export type KeyPolicy = 'closed' | 'open' | 'unknown';

export interface UnknownKeyProbe {
  /** Path of the injected key (the object's path plus the key). */
  path: Array<string | number>;
  /** Pydantic `loc` style: "cwd_explicit", "messages.0.cg_unknown_key". */
  dottedPath: string;
  /** Path of the object that receives the key. */
  objectPath: Array<string | number>;
  /**
   * closed: the payload is rejected at the key (`additionalProperties`, or the keyword of an
   * `additionalProperties` schema that refuses the injected value); open: the payload is accepted;
   * unknown: it is rejected for another reason (e.g. `maxProperties`), so the key's fate is not observable.
   */
  policy: KeyPolicy;
  key: string;
  /** A copy of the value with the key injected at `objectPath`. */
  payload: JsonValue;
  /** Why the policy is what it is when it is not read directly off `additionalProperties`. */
  reason?: string;
}

export interface UnknownKeyOptions {
  resolver: SchemaResolver;
  /** Base name of the injected key (default `cg_unknown_key`); suffixed when it collides with a declared or present key. */
  key?: string;
  /** Value of the injected key (default a short string). */
  injectedValue?: JsonValue;
}

export const DEFAULT_UNKNOWN_KEY = 'cg_unknown_key';

/**
 * One probe per object in `value` (top level, nested objects, array items): `value` with one undeclared key
 * injected there, and the policy the schema applies to it. The structural reading (`additionalProperties`
 * false → closed; true, absent or accepting schema → open) is confirmed against the whole payload with the
 * harness's validator; where the two disagree (another `anyOf` branch takes the key, the payload breaks
 * elsewhere) the verdict of the validator wins and `reason` says why.
 */
export function unknownKeyProbes(schema: JsonSchema, value: JsonValue, options: UnknownKeyOptions): UnknownKeyProbe[] {
  const check = schemaCheckFor(options.resolver);
  const baseErrors = check.errors(schema, value);
  if (baseErrors.length > 0) throw new Error(`unknownKeyProbes: the value does not validate against the schema (${describe(baseErrors[0])}); probes need a valid starting value`);
  const defaultInjected = options.injectedValue ?? 'cg-probe';
  const probes: UnknownKeyProbe[] = [];
  walkValue(schema, value, options.resolver, (node) => {
    if (!isJsonObject(node.value)) return;
    const key = freshKey(options.key ?? DEFAULT_UNKNOWN_KEY, node.value, node.alternatives);
    const injected = (options.injectedValue === undefined ? mapEntryValue(node.matching, key, options.resolver) : undefined) ?? defaultInjected;
    const objectPath = [...node.path];
    const payload = editAt(value, objectPath, (current) => {
      const object = { ...(current as Record<string, JsonValue>) };
      defineKey(object, key, injected);
      return object;
    });
    const structural = structuralPolicy(node.matching, key, injected, (s, v) => check.accepts(s, v));
    const errors = check.errors(schema, payload);
    const verdict = confirm(structural, errors, objectPath, key);
    probes.push({ path: [...objectPath, key], dottedPath: dottedPath([...objectPath, key]), objectPath, key, payload, policy: verdict.policy, ...(verdict.reason ? { reason: verdict.reason } : {}) });
  });
  return probes;
}

/**
 * A map (`additionalProperties` a satisfiable schema) has no unknown keys, only entries: the probe adds an entry
 * its value schema accepts, so the key's fate is judged, not the value's type. An unsatisfiable value schema is
 * `additionalProperties: false` in disguise: the default value is kept, and the key is closed.
 */
function mapEntryValue(matching: readonly FlatSchema[], key: string, resolver: SchemaResolver): JsonValue | undefined {
  const [first] = matching;
  if (!first || matching.length > 1 || matchingPatterns(first, key).length > 0) return undefined;
  const additional = first.additional;
  if (additional === undefined || typeof additional === 'boolean') return undefined;
  try {
    return minimalValue(additional, { resolver });
  } catch {
    return undefined;
  }
}

function freshKey(base: string, object: Record<string, JsonValue>, alternatives: readonly FlatSchema[]): string {
  const taken = (key: string) => Object.hasOwn(object, key) || alternatives.some((a) => a.properties.has(key) || a.forbidden.has(key) || a.required.has(key));
  const patterned = (key: string) => alternatives.some((a) => matchingPatterns(a, key).length > 0);
  let fallback: string | undefined;
  for (let n = 1; ; n++) {
    const key = n === 1 ? base : `${base}_${n}`;
    if (taken(key)) continue;
    if (!patterned(key)) return key;
    // Every free name matching a patternProperty is a declared shape, not an unknown key; give up after a few.
    fallback ??= key;
    if (n > 20) return fallback;
  }
}

function structuralPolicy(matching: readonly FlatSchema[], key: string, injected: JsonValue, accepts: (s: JsonSchema, v: JsonValue) => boolean): KeyPolicy {
  const policies = new Set(
    matching.map((flat): KeyPolicy => {
      if (flat.forbidden.has(key)) return 'closed';
      const patterns = matchingPatterns(flat, key);
      if (patterns.length > 0) return patterns.every((p) => accepts(p, injected)) ? 'open' : 'closed';
      if (flat.additional === undefined || flat.additional === true) return 'open';
      if (flat.additional === false) return 'closed';
      return accepts(flat.additional, injected) ? 'open' : 'closed';
    }),
  );
  return policies.size === 1 ? ([...policies][0] as KeyPolicy) : 'unknown';
}

function confirm(structural: KeyPolicy, errors: ErrorObject[], objectPath: JsonPath, key: string): { policy: KeyPolicy; reason?: string } {
  const at = formatPointer(objectPath);
  const rejectsKey = errors.some(
    (e) => (e.keyword === 'additionalProperties' && e.instancePath === at && (e.params as { additionalProperty?: string }).additionalProperty === key) || e.instancePath === `${at}${formatPointer([key])}`,
  );
  if (errors.length === 0) {
    return structural === 'open' ? { policy: 'open' } : { policy: 'open', reason: `the schema at this path ${structural === 'closed' ? 'is closed' : 'is ambiguous'}, but another branch accepts the key` };
  }
  if (rejectsKey) {
    return structural === 'closed' ? { policy: 'closed' } : { policy: 'closed', reason: `the validator rejects the key: ${describe(errors[0])}` };
  }
  return { policy: 'unknown', reason: `the payload is rejected for another reason: ${describe(errors[0])}` };
}

function describe(error: ErrorObject | undefined): string {
  return error ? `${error.instancePath || '(root)'} ${error.message ?? error.keyword}` : 'no error';
}
