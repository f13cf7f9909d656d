import { numberFits, numberRange, stringFits } from './flatChecks.js';
import type { FlatSchema } from './flatSchema.js';
import { formatSample, knownStringFormat } from './formats.js';
import { shortPatternMatch } from './patternStrings.js';

export type WitnessMode = 'minimal' | 'rich';

/** The number closest to 0 that fits (rich: 1, or 2 / 1.5, when those fit), trying the bounds and their neighbours. */
export function pickNumber(flat: FlatSchema, integer: boolean, mode: WitnessMode): number | undefined {
  const range = numberRange(flat, integer);
  const candidates = mode === 'rich' ? [1, integer ? 2 : 1.5] : [0];
  const { lo, hi } = range;
  const step = flat.multipleOf[0];
  for (const bound of [lo, hi]) {
    if (bound === undefined) continue;
    candidates.push(bound, bound + 1, bound - 1);
    if (step !== undefined) candidates.push(Math.ceil(bound / step) * step, Math.floor(bound / step) * step, (Math.ceil(bound / step) + 1) * step, (Math.floor(bound / step) - 1) * step);
  }
  if (lo !== undefined && hi !== undefined) candidates.push((lo + hi) / 2, Math.round((lo + hi) / 2));
  const valid = candidates.map((n) => Number.parseFloat(n.toPrecision(15))).filter((n) => numberFits(flat, n, integer));
  if (mode === 'rich' && valid[0] !== undefined && candidates.slice(0, 2).includes(valid[0])) return valid[0];
  valid.sort((a, b) => Math.abs(a) - Math.abs(b) || a - b);
  return valid[0];
}

/** A format's sample, the shortest match of the pattern, or "" / "example" padded to `minLength`. */
export function pickString(flat: FlatSchema, mode: WitnessMode): string | undefined {
  const format = knownStringFormat(flat.formats);
  const accept = (s: string) => stringFits(flat, s);
  if (format !== undefined) {
    const sample = formatSample(format, mode);
    if (sample !== undefined && accept(sample)) return sample;
  }
  const pattern = flat.patterns[0];
  if (pattern !== undefined) return shortPatternMatch(pattern, accept, flat.minLength ?? 0, flat.maxLength);
  const min = flat.minLength ?? 0;
  const base = mode === 'rich' ? 'example' : '';
  const text = base.length >= min ? base.slice(0, flat.maxLength ?? base.length) : base + 'x'.repeat(min - base.length);
  return accept(text) ? text : undefined;
}
