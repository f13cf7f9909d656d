import { HarnessError } from '../../core/index.js';

/**
 * The data format of an error-code profile (`profiles/*.json`, `--profile FILE`). A user file names the built-in
 * profile it `extends` and adds to it: its `domainErrors` are consulted before the base's server errors, so a
 * code the reserved range calls "server error" can be declared the target's own (EIP-1474's -32000 "invalid
 * input"); other lists replace the base's.
 */
export interface CodeRule {
  /** One code, or a range (`from`/`to` inclusive; either end open). */
  code?: number;
  from?: number;
  to?: number;
  /** Regular expression the error message must match for the rule to apply. */
  message?: string;
  /** What the code means, for reports. */
  meaning?: string;
}

export interface ProfileData {
  name: string;
  description?: string;
  /** The registered profile this one adds to (`json-rpc` when absent): its scenarios, wire and codes. */
  extends?: string;
  /** Values of `{name}` placeholders in the message templates below (besides `{method}` and `{path}`). */
  placeholders?: Record<string, string>;
  /** How a closed model refuses an unknown key: the code, and exact messages or "the message or data names the key". */
  unknownKey?: { code: number; messages?: string[]; namesPath?: boolean };
  contractRejectionCodes?: number[];
  serverErrors?: CodeRule[];
  domainErrors?: CodeRule[];
  /** Exact messages of -32601 (placeholders `{method}` and those of `placeholders`); absent: any message. */
  unknownMethodMessages?: string[];
  invalidRequestCodes?: number[];
  /** `any-error`: a malformed request may be refused with any error code, not only those of invalidRequestCodes. */
  invalidRequestAnswer?: 'codes' | 'any-error';
  /** How reports name the domain errors; default: from the rules' `meaning` or ranges. */
  domainErrorText?: string;
  /** How a JSON array frame is answered: `responses` (JSON-RPC 2.0 §6, the default) or `one-error`. */
  batch?: 'responses' | 'one-error';
  /**
   * What an undeclared top-level param of a by-name method meets: OpenRPC's by-name descriptors cannot say.
   * `closed` probes it like `additionalProperties: false` (a family whose params models forbid extra keys).
   */
  byNameParams?: 'closed' | 'unspecified';
}

const fail = (origin: string, message: string): never => {
  throw new HarnessError('USAGE', `profile ${origin}: ${message}`);
};

function checkRules(rules: unknown, field: string, origin: string): CodeRule[] | undefined {
  if (rules === undefined) return undefined;
  if (!Array.isArray(rules)) return fail(origin, `${field} must be an array of {code} or {from, to} rules`);
  return rules.map((rule: unknown, index) => {
    const r = rule as Record<string, unknown>;
    const isInt = (value: unknown): boolean => value === undefined || Number.isSafeInteger(value);
    if (typeof rule !== 'object' || rule === null || !isInt(r['code']) || !isInt(r['from']) || !isInt(r['to']) || (r['code'] === undefined && r['from'] === undefined && r['to'] === undefined)) {
      fail(origin, `${field}[${index}] must carry an integer code, or from/to`);
    }
    if (r['message'] !== undefined) {
      try {
        new RegExp(String(r['message']));
      } catch {
        fail(origin, `${field}[${index}].message is not a regular expression`);
      }
    }
    return rule as CodeRule;
  });
}

/** Checks the shape of a parsed profile file; every fault names its field. */
export function parseProfileData(data: unknown, origin: string): ProfileData {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return fail(origin, 'must be a JSON object');
  const raw = data as Record<string, unknown>;
  if (typeof raw['name'] !== 'string' || raw['name'] === '') fail(origin, 'name must be a non-empty string');
  if (raw['extends'] !== undefined && (typeof raw['extends'] !== 'string' || raw['extends'] === '')) fail(origin, 'extends must name a registered profile');
  if (raw['family'] !== undefined) fail(origin, 'family is no longer read: name the profile this one adds to with extends');
  if (raw['invalidRequestAnswer'] !== undefined && raw['invalidRequestAnswer'] !== 'codes' && raw['invalidRequestAnswer'] !== 'any-error') fail(origin, 'invalidRequestAnswer must be "codes" or "any-error"');
  if (raw['batch'] !== undefined && raw['batch'] !== 'responses' && raw['batch'] !== 'one-error') fail(origin, 'batch must be "responses" or "one-error"');
  const placeholders = raw['placeholders'];
  if (placeholders !== undefined && (typeof placeholders !== 'object' || placeholders === null || Array.isArray(placeholders) || !Object.values(placeholders).every((v) => typeof v === 'string'))) {
    fail(origin, 'placeholders must be an object of strings');
  }
  for (const field of ['contractRejectionCodes', 'invalidRequestCodes'] as const) {
    if (raw[field] !== undefined && !(Array.isArray(raw[field]) && (raw[field] as unknown[]).every(Number.isSafeInteger))) fail(origin, `${field} must be an array of integers`);
  }
  if (raw['byNameParams'] !== undefined && raw['byNameParams'] !== 'closed' && raw['byNameParams'] !== 'unspecified') fail(origin, 'byNameParams must be "closed" or "unspecified"');
  const unknownKey = raw['unknownKey'] as Record<string, unknown> | undefined;
  if (unknownKey !== undefined && (typeof unknownKey !== 'object' || !Number.isSafeInteger(unknownKey['code']))) fail(origin, 'unknownKey must be {code, messages?, namesPath?}');
  return { ...(raw as unknown as ProfileData), serverErrors: checkRules(raw['serverErrors'], 'serverErrors', origin), domainErrors: checkRules(raw['domainErrors'], 'domainErrors', origin) } as ProfileData;
}

/** A user profile on top of its base: domain errors add to (and win over) the base; other fields replace it. */
export function extendProfileData(base: ProfileData, user: ProfileData): ProfileData {
  const merged: ProfileData = { ...base };
  for (const [key, value] of Object.entries(user) as Array<[keyof ProfileData, unknown]>) {
    if (value !== undefined && key !== 'domainErrors' && key !== 'extends') (merged as unknown as Record<string, unknown>)[key] = value;
  }
  merged.domainErrors = [...(user.domainErrors ?? []), ...(base.domainErrors ?? [])];
  merged.placeholders = { ...(base.placeholders ?? {}), ...(user.placeholders ?? {}) };
  return merged;
}

export function matchesRule(rule: CodeRule, code: number, message: string | undefined): boolean {
  if (rule.code !== undefined && rule.code !== code) return false;
  if (rule.from !== undefined && code < rule.from) return false;
  if (rule.to !== undefined && code > rule.to) return false;
  if (rule.message !== undefined && !new RegExp(rule.message).test(message ?? '')) return false;
  return true;
}
