import type { JsonValue } from '../src/rpc/messages.js';

export type JsonPath = ReadonlyArray<string | number>;

/** Key-order independent JSON text, used as an identity for dedup and uniqueness (ajv's deep equality ignores key order too). */
export function canonicalJson(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k] as JsonValue)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function jsonEqual(a: JsonValue, b: JsonValue): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** A deep copy; JSON.parse defines `__proto__` keys as own properties, never as prototypes. */
export function cloneJson<T extends JsonValue>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

export function defineKey(target: Record<string, JsonValue>, key: string, value: JsonValue): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function isObjectValue(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function valueAt(root: JsonValue, path: JsonPath): JsonValue | undefined {
  let node: JsonValue | undefined = root;
  for (const step of path) {
    if (Array.isArray(node) && typeof step === 'number') node = node[step];
    else if (isObjectValue(node) && typeof step === 'string' && Object.hasOwn(node, step)) node = node[step];
    else return undefined;
  }
  return node;
}

/** A copy of `root` where the value at `path` is replaced by `edit(current)`; `undefined` from `edit` deletes the key or item. */
export function editAt(root: JsonValue, path: JsonPath, edit: (current: JsonValue | undefined) => JsonValue | undefined): JsonValue {
  const copy = cloneJson(root);
  if (path.length === 0) return edit(copy) ?? null;
  const parent = valueAt(copy, path.slice(0, -1));
  const last = path[path.length - 1] as string | number;
  if (Array.isArray(parent) && typeof last === 'number') {
    const next = edit(parent[last]);
    if (next === undefined) parent.splice(last, 1);
    else parent[last] = next;
  } else if (isObjectValue(parent) && typeof last === 'string') {
    const next = edit(parent[last]);
    if (next === undefined) delete parent[last];
    else defineKey(parent, last, next);
  } else {
    throw new Error(`editAt: path ${JSON.stringify(path)} does not exist in the value; pass a path produced by walking that value`);
  }
  return copy;
}

/** Pydantic `loc` style: keys and indexes joined by dots ("messages.0.role"); the root is "". */
export function dottedPath(path: JsonPath): string {
  return path.map(String).join('.');
}

/** RFC 6901 pointer, the form ajv reports as `instancePath`. */
export function jsonPointer(path: JsonPath): string {
  return path.map((step) => `/${String(step).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

export function jsonTypeOf(value: JsonValue): 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as 'boolean' | 'string' | 'object';
}
