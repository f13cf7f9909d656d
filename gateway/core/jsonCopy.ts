/**
 * A deep copy of a JSON value (plain objects, arrays and scalars, as JSON.parse or json-schema-faker make them).
 * `structuredClone` does the same through the serializer, at about ten times the cost for the small values the
 * gateway copies per answer. A `__proto__` key stays an own data property, as JSON.parse defines it.
 */
export function copyJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const items = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) items[i] = copyJson(value[i] as unknown);
    return items as T;
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const member = copyJson((value as Record<string, unknown>)[key]);
    if (key === '__proto__') Object.defineProperty(copy, key, { value: member, enumerable: true, writable: true, configurable: true });
    else copy[key] = member;
  }
  return copy as T;
}
