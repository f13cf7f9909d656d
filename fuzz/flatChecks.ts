import { jsonTypeOf, type JsonType, type JsonValue } from '../core/index.js';
import type { FlatSchema } from './flatSchema.js';
import { NUMBER_FORMAT_BOUNDS } from './formats.js';
import { codePointLength, patternRegExp } from './patternRegExp.js';

/** ajv's `multipleOf` test (`data / m` must equal `parseInt(data / m)`), reproduced so that generated values pass it. */
export function isMultipleOf(value: number, divisor: number): boolean {
  const quotient = value / divisor;
  return quotient === Number.parseInt(String(quotient), 10);
}

export function typeAllowed(types: readonly JsonType[] | undefined, value: JsonValue): boolean {
  if (types === undefined) return true;
  const actual = jsonTypeOf(value);
  return types.includes(actual) || (actual === 'integer' && types.includes('number'));
}

export function stringFits(flat: FlatSchema, text: string): boolean {
  const length = codePointLength(text);
  if (flat.minLength !== undefined && length < flat.minLength) return false;
  if (flat.maxLength !== undefined && length > flat.maxLength) return false;
  return flat.patterns.every((p) => patternRegExp(p)?.test(text) ?? false);
}

/** Whether a number satisfies the numeric keywords (bounds, multipleOf, integer formats) of `flat`. */
export function numberFits(flat: FlatSchema, value: number, integer: boolean): boolean {
  if (!Number.isFinite(value) || (integer && !Number.isInteger(value))) return false;
  const range = numberRange(flat, integer);
  if (range.lo !== undefined && (range.loExcluded ? value <= range.lo : value < range.lo)) return false;
  if (range.hi !== undefined && (range.hiExcluded ? value >= range.hi : value > range.hi)) return false;
  return flat.multipleOf.every((m) => isMultipleOf(value, m));
}

export interface NumberRange {
  lo?: number;
  loExcluded: boolean;
  hi?: number;
  hiExcluded: boolean;
  /** Set when an integer format (int32, int64) applies: the value must then be an integer. */
  integerFormat: boolean;
}

export function numberRange(flat: FlatSchema, integer: boolean): NumberRange {
  const range: NumberRange = { loExcluded: false, hiExcluded: false, integerFormat: false };
  const lower = (bound: number | undefined, excluded: boolean) => {
    if (bound === undefined) return;
    if (range.lo === undefined || bound > range.lo || (bound === range.lo && excluded)) [range.lo, range.loExcluded] = [bound, excluded];
  };
  const upper = (bound: number | undefined, excluded: boolean) => {
    if (bound === undefined) return;
    if (range.hi === undefined || bound < range.hi || (bound === range.hi && excluded)) [range.hi, range.hiExcluded] = [bound, excluded];
  };
  lower(flat.minimum, false);
  lower(flat.exclusiveMinimum, true);
  upper(flat.maximum, false);
  upper(flat.exclusiveMaximum, true);
  for (const format of flat.formats) {
    const bounds = NUMBER_FORMAT_BOUNDS[format];
    if (bounds) {
      range.integerFormat = true;
      lower(bounds[0], false);
      upper(bounds[1], false);
    }
  }
  if (integer || range.integerFormat) {
    if (range.lo !== undefined) [range.lo, range.loExcluded] = [range.loExcluded ? Math.floor(range.lo) + 1 : Math.ceil(range.lo), false];
    if (range.hi !== undefined) [range.hi, range.hiExcluded] = [range.hiExcluded ? Math.ceil(range.hi) - 1 : Math.floor(range.hi), false];
  }
  return range;
}

/** Whether `value` satisfies the keywords of `flat` that apply to its own type (not subschemas): used to filter enums. */
export function shallowFits(flat: FlatSchema, value: JsonValue): boolean {
  if (!typeAllowed(flat.types, value)) return false;
  if (typeof value === 'string') return stringFits(flat, value);
  if (typeof value === 'number') return numberFits(flat, value, false);
  if (Array.isArray(value)) return (flat.minItems ?? 0) <= value.length && value.length <= (flat.maxItems ?? Infinity);
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    return [...flat.required].every((k) => keys.includes(k)) && keys.every((k) => !flat.forbidden.has(k));
  }
  return true;
}
