import type { ErrorObject } from 'ajv';
import { canonicalJson, cloneJson, dottedPath, editAt, formatPointer, isJsonObject, type JsonPath, type JsonSchema, type JsonType, jsonTypeOf, type JsonValue, type SchemaResolver, valueAt } from '../core/index.js';
import { codePointLength, patternRegExp } from './patternRegExp.js';
import type { FlatSchema } from './flatSchema.js';
import { schemaCheckFor } from './schemaCheck.js';
import { type WalkNode, walkValue } from './walkValue.js';

export type MutationKind = 'wrong-type' | 'missing-required' | 'null-for-non-null' | 'out-of-range' | 'boundary' | 'not-in-enum' | 'pattern-mismatch';

export interface Mutation {
  kind: MutationKind;
  /** Path of the mutated value (for missing-required, of the removed key). */
  path: Array<string | number>;
  dottedPath: string;
  payload: JsonValue;
  /** The ajv keyword that rejects the payload: type, required, minimum, minLength, enum, const, pattern, format, … */
  expectedKeyword: string;
  description: string;
}

export interface MutationOptions {
  resolver: SchemaResolver;
  /** Candidates the caller has no use for (already covered), left out before they are built and validated. */
  skip?: (kind: MutationKind, dottedPath: string) => boolean;
}

interface Candidate {
  kind: MutationKind;
  path: JsonPath;
  keyword: string;
  /** Where ajv reports the error (the parent object for `required`). */
  errorPath: JsonPath;
  edit: (current: JsonValue | undefined) => JsonValue | undefined;
  description: string;
}

/**
 * Negative payloads derived from a valid `value`: at every path (top level and nested, pre-order), each
 * constraint of the schema is broken once. A candidate is kept only when the harness's validator rejects the
 * whole payload with `expectedKeyword` at that path, so every mutation is a real contract violation.
 */
export function mutationsOf(schema: JsonSchema, value: JsonValue, options: MutationOptions): Mutation[] {
  const check = schemaCheckFor(options.resolver);
  const baseErrors = check.errors(schema, value);
  if (baseErrors.length > 0) throw new Error(`mutationsOf: the value does not validate against the schema (${baseErrors[0]?.instancePath || '(root)'} ${baseErrors[0]?.message ?? ''}); mutations need a valid starting value`);
  const out: Mutation[] = [];
  const seen = new Set<string>();
  walkValue(schema, value, options.resolver, (node) => {
    for (const candidate of candidatesAt(node)) {
      if (options.skip?.(candidate.kind, dottedPath(candidate.path))) continue;
      const replacement = candidate.edit(valueAt(value, candidate.path));
      const identity = `${candidate.kind} ${formatPointer(candidate.path)} ${replacement === undefined ? '-' : canonicalJson(replacement)}`;
      if (seen.has(identity)) continue;
      seen.add(identity);
      const payload = editAt(value, candidate.path, () => replacement);
      if (!rejectedAsIntended(check.errors(schema, payload), candidate)) continue;
      const path = [...candidate.path];
      out.push({ kind: candidate.kind, path, dottedPath: dottedPath(path), payload, expectedKeyword: candidate.keyword, description: `${dottedPath(path) || '(root)'}: ${candidate.description}` });
    }
  });
  return out;
}

function rejectedAsIntended(errors: ErrorObject[], candidate: Candidate): boolean {
  const at = formatPointer(candidate.errorPath);
  return errors.some((e) => e.keyword === candidate.keyword && e.instancePath === at);
}

function candidatesAt(node: WalkNode): Candidate[] {
  const flat = node.matching[0];
  if (flat === undefined) return [];
  const candidates: Candidate[] = [];
  const add = (kind: MutationKind, keyword: string, replacement: JsonValue, description: string) =>
    candidates.push({ kind, path: node.path, errorPath: node.path, keyword, edit: () => cloneJson(replacement), description });
  const allowed = allowedTypes(node.alternatives);
  const keyword = node.alternatives.every((a) => a.types !== undefined) ? 'type' : flat.fromConst ? 'const' : 'enum';
  if (allowed !== undefined) {
    const replacement = wrongTypeValue(node.value, allowed);
    if (replacement !== undefined) add('wrong-type', keyword, replacement, `${jsonTypeOf(replacement)} instead of ${[...allowed].join('|')}`);
    if (!allowed.has('null')) add('null-for-non-null', keyword, null, `null where ${[...allowed].join('|')} is required`);
  }
  const value = node.value;
  if (isJsonObject(value)) {
    for (const key of flat.required) {
      if (!Object.hasOwn(value, key)) continue;
      candidates.push({ kind: 'missing-required', path: [...node.path, key], errorPath: node.path, keyword: 'required', edit: () => undefined, description: `required key "${key}" removed` });
    }
  }
  if (typeof value === 'number') numberCandidates(flat, add);
  if (typeof value === 'string') stringCandidates(flat, value, add);
  if (Array.isArray(value)) arrayCandidates(flat, value, add);
  if (flat.enum) {
    const outsider = valueOutside(flat.enum, value);
    if (outsider !== undefined) add('not-in-enum', flat.fromConst ? 'const' : 'enum', outsider, `${JSON.stringify(outsider)} is not one of ${JSON.stringify(flat.enum).slice(0, 80)}`);
  }
  return candidates;
}

/** Types a value at this path may have; undefined when some alternative admits every type. */
function allowedTypes(alternatives: readonly FlatSchema[]): Set<JsonType> | undefined {
  const allowed = new Set<JsonType>();
  for (const alt of alternatives) {
    if (alt.enum) for (const v of alt.enum) allowed.add(jsonTypeOf(v));
    else if (alt.types) for (const t of alt.types) allowed.add(t);
    else return undefined;
  }
  if (allowed.has('number')) allowed.add('integer');
  return allowed;
}

const WRONG_TYPE_ORDER: Record<string, JsonValue[]> = {
  string: [7, true, {}, []],
  integer: ['7', true, {}, []],
  number: ['7.5', true, {}, []],
  boolean: ['true', 1, {}, []],
  object: [[], 'cg_wrong_type', 7],
  array: [{}, 'cg_wrong_type', 7],
  null: ['cg_wrong_type', 7, true, {}, []],
};

function wrongTypeValue(current: JsonValue, allowed: Set<JsonType>): JsonValue | undefined {
  const options = [...(WRONG_TYPE_ORDER[jsonTypeOf(current)] ?? []), 1.5];
  return options.find((v) => !allowed.has(jsonTypeOf(v)));
}

type Add = (kind: MutationKind, keyword: string, replacement: JsonValue, description: string) => void;

function below(bound: number, integer: boolean): number {
  if (integer) return bound - 1;
  const next = bound - Math.max(Math.abs(bound) * 1e-12, 1e-9);
  return next < bound ? next : bound - 1;
}

function above(bound: number, integer: boolean): number {
  return -below(-bound, integer);
}

function numberCandidates(flat: FlatSchema, add: Add): void {
  const integer = flat.types !== undefined && flat.types.every((t) => t === 'integer');
  const far = (bound: number) => Math.max(1000, Math.abs(bound));
  if (flat.minimum !== undefined) {
    add('boundary', 'minimum', below(flat.minimum, integer), `just below minimum ${flat.minimum}`);
    add('out-of-range', 'minimum', flat.minimum - far(flat.minimum), `far below minimum ${flat.minimum}`);
  }
  if (flat.exclusiveMinimum !== undefined) {
    add('boundary', 'exclusiveMinimum', flat.exclusiveMinimum, `equal to exclusiveMinimum ${flat.exclusiveMinimum}`);
    add('out-of-range', 'exclusiveMinimum', flat.exclusiveMinimum - far(flat.exclusiveMinimum), `far below exclusiveMinimum ${flat.exclusiveMinimum}`);
  }
  if (flat.maximum !== undefined) {
    add('boundary', 'maximum', above(flat.maximum, integer), `just above maximum ${flat.maximum}`);
    add('out-of-range', 'maximum', flat.maximum + far(flat.maximum), `far above maximum ${flat.maximum}`);
  }
  if (flat.exclusiveMaximum !== undefined) {
    add('boundary', 'exclusiveMaximum', flat.exclusiveMaximum, `equal to exclusiveMaximum ${flat.exclusiveMaximum}`);
    add('out-of-range', 'exclusiveMaximum', flat.exclusiveMaximum + far(flat.exclusiveMaximum), `far above exclusiveMaximum ${flat.exclusiveMaximum}`);
  }
  for (const divisor of flat.multipleOf) add('out-of-range', 'multipleOf', Number.isInteger(divisor) && divisor >= 2 ? divisor + 1 : divisor * 1.5, `not a multiple of ${divisor}`);
}

const FORMAT_BREAKERS: Record<string, string> = { regex: '(', byte: '!!!', 'uri-reference': '\\ not a reference', 'json-pointer': 'no-leading-slash', 'relative-json-pointer': 'x' };

function stringCandidates(flat: FlatSchema, value: string, add: Add): void {
  const length = codePointLength(value);
  if (flat.minLength !== undefined && flat.minLength > 0) add('boundary', 'minLength', [...value].slice(0, flat.minLength - 1).join(''), `${flat.minLength - 1} characters, minLength is ${flat.minLength}`);
  if (flat.maxLength !== undefined) add('boundary', 'maxLength', value + 'x'.repeat(flat.maxLength + 1 - length), `${flat.maxLength + 1} characters, maxLength is ${flat.maxLength}`);
  const fitsLength = (s: string) => codePointLength(s) >= (flat.minLength ?? 0) && codePointLength(s) <= (flat.maxLength ?? Infinity);
  for (const pattern of flat.patterns) {
    const regex = patternRegExp(pattern);
    const pad = (s: string) => (codePointLength(s) < (flat.minLength ?? 0) ? s + '~'.repeat((flat.minLength ?? 0) - codePointLength(s)) : s);
    const breaker = ['', '~', ' cg pattern mismatch ~', '~'.repeat(flat.maxLength ?? 1)].map(pad).find((s) => fitsLength(s) && regex !== undefined && !regex.test(s));
    if (breaker !== undefined) add('pattern-mismatch', 'pattern', breaker, `${JSON.stringify(breaker)} does not match ${pattern}`);
  }
  for (const format of flat.formats) {
    const breaker = FORMAT_BREAKERS[format] ?? `cg not a ${format}`;
    if (fitsLength(breaker)) add('pattern-mismatch', 'format', breaker, `${JSON.stringify(breaker)} is not a valid ${format}`);
  }
}

function arrayCandidates(flat: FlatSchema, value: JsonValue[], add: Add): void {
  if (flat.minItems !== undefined && flat.minItems > 0) add('boundary', 'minItems', value.slice(0, flat.minItems - 1), `${flat.minItems - 1} items, minItems is ${flat.minItems}`);
  if (flat.maxItems !== undefined && value.length > 0) {
    const longer = [...value];
    for (let i = 0; longer.length <= flat.maxItems; i++) longer.push(cloneJson(value[i % value.length] as JsonValue));
    add('boundary', 'maxItems', longer, `${longer.length} items, maxItems is ${flat.maxItems}`);
  }
  if (flat.uniqueItems && value.length > 0) add('boundary', 'uniqueItems', [...value, cloneJson(value[0] as JsonValue)], 'first item repeated, uniqueItems is set');
}

function valueOutside(allowed: readonly JsonValue[], current: JsonValue): JsonValue | undefined {
  const taken = new Set(allowed.map(canonicalJson));
  const candidates: JsonValue[] = [];
  if (typeof current === 'number') candidates.push(Math.max(...allowed.filter((v): v is number => typeof v === 'number'), current) + 1);
  if (typeof current === 'boolean') candidates.push(!current);
  for (let n = 1; n < 20; n++) candidates.push(n === 1 ? 'cg_not_in_enum' : `cg_not_in_enum_${n}`);
  return candidates.find((v) => !taken.has(canonicalJson(v)));
}
