import type { SchemaCheck } from '../contracts/schemaValidators.js';
import { isJsonObject, jsonTextWith, type JsonValue, type KnownText } from '../../core/index.js';

export const LONG_STRING_LENGTH = 65_536;

const LONG_STRING = 'x'.repeat(LONG_STRING_LENGTH);
const LONG_TEXT: KnownText = { value: LONG_STRING, text: JSON.stringify(LONG_STRING) };

/** The variants made here (objects and arrays), so that a sender knows which payloads hold long strings. */
const variants = new WeakSet<object>();

/** The params text of a payload bound from a long-string variant: the long strings' JSON text is made once. */
export function longStringParamsText(generated: JsonValue, payload: JsonValue): string | undefined {
  return typeof generated === 'object' && generated !== null && variants.has(generated) ? jsonTextWith(payload, LONG_TEXT) : undefined;
}

/** Replaces every string down to `maxDepth`; `changed.value` says whether any string was replaced. */
function replaceStrings(value: JsonValue, depth: number, maxDepth: number, changed: { value: boolean }): JsonValue {
  if (typeof value === 'string') {
    if (value !== LONG_STRING) changed.value = true;
    return LONG_STRING;
  }
  if (depth >= maxDepth) return value;
  if (Array.isArray(value)) return value.map((item) => replaceStrings(item, depth + 1, maxDepth, changed));
  if (isJsonObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceStrings(v, depth + 1, maxDepth, changed)]));
  return value;
}

/**
 * A contract-valid variant of `value` whose free-text strings are 64 KiB long (handlers that crash on long input
 * are a classic server error). Strings constrained by enum, pattern, format or maxLength make the variant invalid,
 * so shallower variants are tried; undefined when none is valid.
 */
export function longStringVariant(value: JsonValue, validate: SchemaCheck): JsonValue | undefined {
  for (const maxDepth of [8, 1]) {
    const changed = { value: false };
    const variant = replaceStrings(value, 0, maxDepth, changed);
    if (changed.value && validate(variant).length === 0) {
      if (typeof variant === 'object' && variant !== null) variants.add(variant);
      return variant;
    }
  }
  return undefined;
}
