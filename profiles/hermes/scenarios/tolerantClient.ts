import { type Exchange, type JsonObject, type Outcome, outcomeOf } from '../../../core/index.js';
import { HERMES_OUT_OF_SYNC_SUFFIX } from '../errorCodes.js';

/** Anything that sends one request and reports the exchange without throwing (an RpcClient). */
export interface ScenarioCaller {
  call(method: string, params?: unknown): Promise<Exchange>;
}

/** Fields the desktop drops on an exact rejection (spec §2.5): the cwd provenance flag and the speed tier. */
export const TOLERATED_CREATE_FIELDS: readonly string[] = ['cwd_explicit', 'service_tier'];

export interface TolerantAttempt {
  params: JsonObject;
  outcome: Outcome;
}

export interface TolerantResult {
  /** The outcome of the last attempt. */
  outcome: Outcome;
  attempts: TolerantAttempt[];
  /** Fields dropped between attempts, in order. */
  dropped: string[];
}

const EXTRA_KEY_TEXT = ': Extra inputs are not permitted';

/**
 * The field named by an unknown-key rejection of `method`, only when the error is exactly code 4000 with
 * `invalid params for <method>: <field>: Extra inputs are not permitted` (with or without the out-of-sync suffix).
 * Anything else (another code, a handler error that merely mentions a field, a nested path) gives undefined.
 */
export function rejectedField(outcome: Outcome, method: string): string | undefined {
  if (outcome.kind !== 'error' || outcome.code !== 4000) return undefined;
  const prefix = `invalid params for ${method}: `;
  if (!outcome.message.startsWith(prefix)) return undefined;
  let rest = outcome.message.slice(prefix.length);
  if (rest.endsWith(HERMES_OUT_OF_SYNC_SUFFIX)) rest = rest.slice(0, -HERMES_OUT_OF_SYNC_SUFFIX.length);
  if (!rest.endsWith(EXTRA_KEY_TEXT)) return undefined;
  const field = rest.slice(0, -EXTRA_KEY_TEXT.length);
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(field) ? field : undefined;
}

/**
 * The desktop's tolerant create: send; on the exact rejection of a tolerated field that was actually sent, resend
 * once without only that field (every other key, `cwd` included, is kept). Each field is dropped at most once, and
 * any other failure is returned as is, never retried.
 */
export async function createTolerantly(
  caller: ScenarioCaller,
  params: JsonObject,
  options: { method?: string; fields?: readonly string[] } = {},
): Promise<TolerantResult> {
  const method = options.method ?? 'session.create';
  const fields = options.fields ?? TOLERATED_CREATE_FIELDS;
  const attempts: TolerantAttempt[] = [];
  const dropped: string[] = [];
  let current: JsonObject = { ...params };
  for (;;) {
    const outcome = outcomeOf(await caller.call(method, current));
    attempts.push({ params: current, outcome });
    const field = rejectedField(outcome, method);
    if (field === undefined || !fields.includes(field) || !Object.hasOwn(current, field) || dropped.includes(field)) {
      return { outcome, attempts, dropped };
    }
    dropped.push(field);
    current = Object.fromEntries(Object.entries(current).filter(([key]) => key !== field));
  }
}
