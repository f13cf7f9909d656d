/** JSON values as they travel on the wire, and the small value-level helpers every layer shares. */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A location inside a value: object keys and array indexes, outermost first. */
export type JsonPath = ReadonlyArray<string | number>;

export type JsonType = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object';

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON Schema type of a value; integral numbers are `integer` (and also satisfy `number`). */
export function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'object') return 'object';
  return typeof value === 'boolean' ? 'boolean' : 'string';
}

/** A deep copy; JSON.parse defines `__proto__` keys as own properties, never as prototypes. */
export function cloneJson<T extends JsonValue>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Sets a key as an own data property, so that `__proto__` and `constructor` are plain keys. */
export function defineKey(target: Record<string, JsonValue>, key: string, value: JsonValue): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The value at `path` (own properties only), or undefined when a step is missing. */
export function valueAt(root: JsonValue, path: JsonPath): JsonValue | undefined {
  let node: JsonValue | undefined = root;
  for (const step of path) {
    if (Array.isArray(node) && typeof step === 'number') node = node[step];
    else if (isJsonObject(node) && typeof step === 'string' && Object.hasOwn(node, step)) node = node[step];
    else return undefined;
  }
  return node;
}

/** A new array or object with the same items or keys (`__proto__` stays a plain key). */
function shallowCopy(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.slice();
  if (isJsonObject(value)) return { ...value };
  return value;
}

/**
 * A copy of `root` where the value at `path` is replaced by `edit(current)`; `undefined` from `edit` deletes the
 * key or item. Only the arrays and objects on the path are copied: the rest is shared with `root`, so neither
 * may be changed in place afterwards, and `edit` must not change what it is given (it may return it in a new
 * container). JSON values are treated as immutable throughout the harness, which makes this safe.
 */
export function editAt(root: JsonValue, path: JsonPath, edit: (current: JsonValue | undefined) => JsonValue | undefined): JsonValue {
  if (path.length === 0) return edit(cloneJson(root)) ?? null;
  const missing = (): Error => new Error(`editAt: path ${JSON.stringify(path)} does not exist in the value; pass a path produced by walking that value`);
  const copy = shallowCopy(root);
  let parent: JsonValue | undefined = copy;
  for (let i = 0; i < path.length - 1; i++) {
    const step = path[i] as string | number;
    let child: JsonValue | undefined;
    if (Array.isArray(parent) && typeof step === 'number') child = parent[step];
    else if (isJsonObject(parent) && typeof step === 'string' && Object.hasOwn(parent, step)) child = parent[step];
    if (child === undefined) throw missing();
    const childCopy = shallowCopy(child);
    if (Array.isArray(parent)) parent[step as number] = childCopy;
    else defineKey(parent as Record<string, JsonValue>, step as string, childCopy);
    parent = childCopy;
  }
  const last = path[path.length - 1] as string | number;
  if (Array.isArray(parent) && typeof last === 'number') {
    const next = edit(parent[last]);
    if (next === undefined) parent.splice(last, 1);
    else parent[last] = next;
  } else if (isJsonObject(parent) && typeof last === 'string') {
    const next = edit(Object.hasOwn(parent, last) ? parent[last] : undefined);
    if (next === undefined) delete parent[last];
    else defineKey(parent, last, next);
  } else {
    throw missing();
  }
  return copy;
}

/** A string the caller sends again and again, and its JSON text (`JSON.stringify(value)`), made once. */
export interface KnownText {
  value: string;
  text: string;
}

/**
 * `JSON.stringify(value)`, with the text of `known.value` taken as it was made once instead of escaped and
 * copied anew wherever the value occurs (64 KiB strings cost a character-by-character escape scan each time).
 * Anything but plain arrays and objects is left to `JSON.stringify`, so the text is the same in every case.
 */
export function jsonTextWith(value: unknown, known: KnownText): string | undefined {
  if (value === known.value) return known.text;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const prototype: unknown = Object.getPrototypeOf(value);
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return JSON.stringify(value);
  // Concatenated, not joined: a join copies the long texts into a new string at every level.
  if (Array.isArray(value)) {
    if (prototype !== Array.prototype) return JSON.stringify(value);
    let text = '[';
    for (let index = 0; index < value.length; index++) text += (index > 0 ? ',' : '') + (jsonTextWith(value[index], known) ?? 'null');
    return text + ']';
  }
  if (prototype !== Object.prototype && prototype !== null) return JSON.stringify(value);
  let text = '{';
  for (const key of Object.keys(value)) {
    const member = jsonTextWith((value as Record<string, unknown>)[key], known);
    if (member !== undefined) text += (text.length > 1 ? ',' : '') + JSON.stringify(key) + ':' + member;
  }
  return text + '}';
}

/** Pydantic `loc` style: keys and indexes joined by dots ("messages.0.role"); the root is "". */
export function dottedPath(path: JsonPath): string {
  return path.map(String).join('.');
}
