import type { OptionKind, ScalarKind } from './optionTypes.js';
import { parseShard } from './shardText.js';

/** A value an option cannot take; the message names the option (`--runs`, or a configuration key) and never a secret. */
export class OptionValueError extends Error {}

export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/;
const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const;

/** `5000`, `500ms`, `5s`, `2m`, `1h` → milliseconds; undefined when the text is none of these. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION.exec(text.trim());
  if (!match) return undefined;
  const ms = Number(match[1]) * UNIT_MS[(match[2] ?? 'ms') as keyof typeof UNIT_MS];
  return Number.isSafeInteger(ms) ? ms : undefined;
}

function bounds(kind: { min?: number; max?: number }): string {
  if (kind.min !== undefined && kind.max !== undefined) return ` (${kind.min} … ${kind.max})`;
  if (kind.min !== undefined) return ` ≥ ${kind.min}`;
  return kind.max !== undefined ? ` ≤ ${kind.max}` : '';
}

function checkInteger(kind: { min?: number; max?: number }, value: number, label: string, what: string, shown: string): number {
  const inBounds = (kind.min === undefined || value >= kind.min) && (kind.max === undefined || value <= kind.max);
  if (!Number.isSafeInteger(value) || !inBounds) throw new OptionValueError(`${label} must be ${what}${bounds(kind)}, got ${shown}`);
  return value;
}

function checkShard(value: string, label: string): string {
  if (!parseShard(value)) throw new OptionValueError(`${label} must be i/n with 1 ≤ i ≤ n, got "${value}"`);
  return value;
}

/**
 * The value of one command-line argument. Secrets-by-name (`envName`) are checked for their form only, so that a
 * token pasted where its variable's name belongs is refused without being repeated.
 */
export function parseArgument(kind: ScalarKind, raw: string, label: string): string | number | boolean {
  switch (kind.kind) {
    case 'integer':
      return checkInteger(kind, raw.trim() === '' ? NaN : Number(raw), label, 'an integer', `"${raw}"`);
    case 'duration': {
      const ms = parseDuration(raw);
      return checkInteger(kind, ms ?? NaN, label, 'a duration in ms (or with a unit: 500ms, 5s, 2m)', `"${raw}"`);
    }
    case 'envName':
      if (!ENV_NAME.test(raw)) throw new OptionValueError(`${label} takes the NAME of an environment variable (e.g. GATEWAY_TOKEN), not a value; what was given is not shown`);
      return raw;
    case 'regex':
      try {
        new RegExp(raw);
      } catch (error) {
        throw new OptionValueError(`${label} is not a valid regular expression: ${(error as Error).message}`);
      }
      return raw;
    case 'shard':
      return checkShard(raw, label);
    case 'choice':
      if (!kind.values.includes(raw)) throw new OptionValueError(`${label} must be one of ${kind.values.join(', ')}, got "${raw}"`);
      return raw;
    case 'boolean':
      return raw !== 'false';
    default:
      return raw;
  }
}

/**
 * A configuration-file value that passed the JSON Schema, in the form the command line gives it: durations in
 * milliseconds, a single string where a list is expected as a one-item list.
 */
export function normalizeFileValue(kind: OptionKind, value: unknown, label: string): unknown {
  if (kind.kind === 'list') return (Array.isArray(value) ? value : [value]).map((item, index) => normalizeFileValue(kind.of, item, `${label}[${index}]`));
  if (kind.kind === 'duration' && typeof value === 'string') return parseArgument(kind, value, label);
  if (kind.kind === 'shard' && typeof value === 'string') return checkShard(value, label);
  return value;
}
