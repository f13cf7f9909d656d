import { isJsonObject } from '../../core/index.js';
import type { FrameSide } from './findings.js';
import type { UnjudgedCounts } from './judgeTally.js';

/**
 * The JSON-RPC object a relayed frame carries, or undefined when no check can judge it (too long, not JSON, a
 * batch, not an object); those are counted in `unjudged` by reason.
 */
export function readWireFrame(text: string, side: FrameSide, maxJudgedChars: number, unjudged: UnjudgedCounts): Record<string, unknown> | undefined {
  if (text.length > maxJudgedChars) {
    unjudged.tooLarge++;
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (Array.isArray(value)) {
    unjudged.batches++;
    return undefined;
  }
  if (isJsonObject(value)) return value;
  if (side === 'client') unjudged.clientNotJson++;
  else unjudged.serverNotJson++;
  return undefined;
}
