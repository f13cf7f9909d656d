import { readFileSync } from 'node:fs';
import { GENERIC_CATALOGUE } from '../checks/checkCatalogue.js';
import { HarnessError } from '../../core/index.js';

/** One accepted failure: the cell `method` × `check` is expected to fail, for `reason`. */
export interface BaselineEntry {
  method: string;
  check: string;
  reason: string;
}

const FIELDS = ['method', 'check', 'reason'] as const;

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? JSON.stringify(value) : `a ${typeof value}`;
}

/**
 * Parses and validates a baseline file (`[{ "method", "check", "reason" }]`). Throws a `BASELINE_INVALID`
 * HarnessError naming the file, the index of the bad entry and the fix. Check ids the run does not know and duplicate cells
 * are errors: such entries could never match, so they would quietly accept nothing.
 */
export function parseBaseline(text: string, path: string, isCheck: (id: string) => boolean = (id) => GENERIC_CATALOGUE.has(id)): BaselineEntry[] {
  const fail = (message: string): never => {
    throw new HarnessError('BASELINE_INVALID', `baseline ${path}: ${message}`);
  };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return fail(`not valid JSON (${(error as Error).message}); expected [{ "method": …, "check": …, "reason": … }]`);
  }
  if (!Array.isArray(data)) return fail(`expected a JSON array of { "method", "check", "reason" } entries, got ${describe(data)}`);
  const seen = new Map<string, number>();
  return data.map((raw: unknown, index): BaselineEntry => {
    const at = `entry ${index}`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail(`${at} must be an object { "method", "check", "reason" }, got ${describe(raw)}`);
    const record = raw as Record<string, unknown>;
    const extra = Object.keys(record).filter((key) => !(FIELDS as readonly string[]).includes(key));
    if (extra.length) return fail(`${at} has unknown key(s) ${extra.map((key) => JSON.stringify(key)).join(', ')}; allowed keys are method, check, reason`);
    for (const field of FIELDS) {
      const value = record[field];
      if (typeof value !== 'string' || value.trim() === '') fail(`${at}: "${field}" must be a non-empty string, got ${describe(value)}`);
    }
    const entry = { method: record['method'], check: record['check'], reason: record['reason'] } as BaselineEntry;
    if (!isCheck(entry.check)) fail(`${at}: "${entry.check}" is not a check id of this run (see docs/checks.md)`);
    const key = baselineKey(entry.method, entry.check);
    const previous = seen.get(key);
    if (previous !== undefined) fail(`${at} repeats entry ${previous} (${entry.method} × ${entry.check}); keep one`);
    seen.set(key, index);
    return entry;
  });
}

/** Reads and parses the baseline file of `--baseline`: a file that cannot be read is a usage error naming it. */
export function loadBaseline(path: string, isCheck?: (id: string) => boolean): BaselineEntry[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : `cannot be read (${(error as Error).message})`;
    throw new HarnessError('USAGE', `--baseline ${path}: ${reason}; pass the JSON file of known failures [{ "method", "check", "reason" }]`);
  }
  return parseBaseline(text, path, isCheck);
}

export function baselineKey(method: string, check: string): string {
  return JSON.stringify([method, check]);
}

export interface BaselineIndex {
  readonly entries: readonly BaselineEntry[];
  /** The entry for the cell `method` × `check`, if the baseline accepts its failure. */
  lookup(method: string, check: string): BaselineEntry | undefined;
}

export function baselineIndex(entries: readonly BaselineEntry[]): BaselineIndex {
  const byKey = new Map(entries.map((entry) => [baselineKey(entry.method, entry.check), entry]));
  return {
    entries,
    lookup: (method, check) => byKey.get(baselineKey(method, check)),
  };
}
