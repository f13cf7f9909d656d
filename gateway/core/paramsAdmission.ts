import type { ContractSet, MethodContract, ParamDescriptor } from './contract/contractSet.js';
import { firstExtraKey } from './contract/firstExtraKey.js';
import type { SchemaValidators } from './contract/schemaValidators.js';
import { ErrorCode, OUT_OF_SYNC_SUFFIX, type WireError } from './wireErrors.js';

export type Admission = { ok: true; params: Record<string, unknown> } | { ok: false; error: WireError };

/**
 * Domain codes the Hermes handlers answer for a missing or malformed field (spec §2.4). Any other contract-invalid
 * payload answers -32602: the real gateway leaves such fields to its handlers, but the reference gateway never
 * lets a payload that fails the params schema reach a success.
 */
const DOMAIN_REFUSALS: Record<string, Record<string, WireError>> = {
  'session.resume': { session_id: { code: ErrorCode.SESSION_ID_REQUIRED, message: 'session_id required' } },
  'session.delete': { session_id: { code: ErrorCode.SESSION_ID_REQUIRED, message: 'session_id required' } },
  'session.workspace.move': {
    session_key: { code: ErrorCode.STORED_SESSION_NOT_FOUND, message: 'session_key required' },
    cwd: { code: ErrorCode.CWD_REQUIRED, message: 'cwd required' },
  },
  'session.cwd.set': { cwd: { code: ErrorCode.CWD_REQUIRED, message: 'cwd required' } },
  'spawn_tree.load': { path: { code: ErrorCode.INVALID_PARAMS_HERMES, message: 'path required' } },
  'session.events.since': { last_seen: { code: ErrorCode.INVALID_PARAMS, message: 'invalid params: last_seen must be an integer' } },
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface Slot {
  readonly descriptor: ParamDescriptor;
  readonly value: unknown;
  /** Path prefix of the slot in the payload: [] for the whole object, [name] by name, [index] by position. */
  readonly prefix: readonly string[];
}

const prefixesOf = new WeakMap<MethodContract, ReadonlyArray<readonly string[]>>();
const declaredOf = new WeakMap<MethodContract, ReadonlySet<string>>();

/** Each by-name descriptor's path prefix, `[name]`, made once per method. */
function byNamePrefixes(method: MethodContract): ReadonlyArray<readonly string[]> {
  let prefixes = prefixesOf.get(method);
  if (!prefixes) prefixesOf.set(method, (prefixes = method.params.map((descriptor) => [descriptor.name])));
  return prefixes;
}

function declaredNames(method: MethodContract): ReadonlySet<string> {
  let names = declaredOf.get(method);
  if (!names) declaredOf.set(method, (names = new Set(method.params.map((descriptor) => descriptor.name))));
  return names;
}

export class ParamsAdmission {
  constructor(
    private readonly contracts: ContractSet,
    private readonly validators: SchemaValidators,
    private readonly legacyMessages: boolean,
  ) {}

  admit(method: MethodContract, raw: unknown): Admission {
    const shaped = this.slots(method, raw);
    if ('error' in shaped) return { ok: false, error: shaped.error };
    const extra = this.extraIn(method, shaped);
    if (extra) return { ok: false, error: this.extraKeyError(method, extra) };
    for (const slot of shaped.slots) {
      if (slot.value === undefined) {
        if (slot.descriptor.required) return { ok: false, error: this.invalid(method, [...slot.prefix], 'Field required') };
        continue;
      }
      const issue = this.validators.check(slot.descriptor.schema, slot.value);
      if (issue) return { ok: false, error: this.invalid(method, [...slot.prefix, ...issue.path], issue.reason) };
    }
    return { ok: true, params: shaped.params };
  }

  /**
   * The location of the first unknown key of `raw` in Pydantic's order, or undefined. `closeOpenModels` treats open
   * models as closed too (what a gateway that misreads them rejects).
   */
  unknownKey(method: MethodContract, raw: unknown, options: { closeOpenModels?: boolean } = {}): string[] | undefined {
    const shaped = this.slots(method, raw);
    return 'error' in shaped ? undefined : this.extraIn(method, shaped, options);
  }

  private extraIn(method: MethodContract, shaped: { slots: Slot[]; params: Record<string, unknown> }, options: { closeOpenModels?: boolean } = {}): string[] | undefined {
    const resolve = this.contracts.resolverFor(method.document);
    for (const slot of shaped.slots) {
      if (slot.value === undefined) continue;
      const extra = firstExtraKey(slot.value, slot.descriptor.schema.schema, resolve, slot.prefix, options);
      if (extra) return extra;
    }
    const topLevel = this.undeclaredMember(method, shaped.params);
    return topLevel === undefined ? undefined : [topLevel];
  }

  private slots(method: MethodContract, raw: unknown): { slots: Slot[]; params: Record<string, unknown> } | { error: WireError } {
    const notA = (kind: string) => ({ error: this.invalid(method, ['params'], `Input should be a valid ${kind}`) });
    if (method.shape === 'whole-object') {
      // Hermes reads `req.get("params") or {}`: absent and null params are an empty params object.
      const value = raw === undefined || raw === null ? {} : raw;
      if (!isPlainObject(value)) return notA('dictionary');
      const descriptor = method.params[0];
      return { slots: descriptor ? [{ descriptor, value, prefix: [] }] : [], params: value };
    }
    const byPosition = method.shape === 'by-position' || (method.shape === 'either' && Array.isArray(raw));
    if (byPosition) {
      const list = raw === undefined ? [] : raw;
      if (!Array.isArray(list)) return notA('list');
      if (list.length > method.params.length) {
        return { error: this.invalid(method, [String(method.params.length)], `at most ${method.params.length} positional params`) };
      }
      const params: Record<string, unknown> = {};
      const slots = method.params.map((descriptor, index) => {
        params[descriptor.name] = list[index];
        return { descriptor, value: list[index], prefix: [String(index)] };
      });
      return { slots, params };
    }
    const object = raw === undefined || (raw === null && method.document.profile === 'hermes') ? {} : raw;
    if (!isPlainObject(object)) return notA('dictionary');
    // Only the members sent and the required ones have anything to check: an absent optional field is skipped.
    const slots: Slot[] = [];
    const prefixes = byNamePrefixes(method);
    method.params.forEach((descriptor, index) => {
      const value = Object.hasOwn(object, descriptor.name) ? object[descriptor.name] : undefined;
      if (value !== undefined || descriptor.required) slots.push({ descriptor, value, prefix: prefixes[index] as readonly string[] });
    });
    return { slots, params: object };
  }

  /**
   * Hermes params models are closed (`extra="forbid"`): under by-name params a member no descriptor names is an
   * unknown key, reported after the declared fields as Pydantic does. Generic documents say nothing about it.
   */
  private undeclaredMember(method: MethodContract, params: Record<string, unknown>): string | undefined {
    if (method.shape !== 'by-name' || method.document.profile !== 'hermes') return undefined;
    const declared = declaredNames(method);
    for (const key in params) if (Object.hasOwn(params, key) && !declared.has(key)) return key;
    return undefined;
  }

  private extraKeyError(method: MethodContract, path: readonly string[]): WireError {
    const base = `invalid params for ${method.name}: ${path.join('.')}: Extra inputs are not permitted`;
    if (method.document.profile === 'generic') return { code: ErrorCode.INVALID_PARAMS, message: base };
    return { code: ErrorCode.INVALID_PARAMS_HERMES, message: this.legacyMessages ? base : base + OUT_OF_SYNC_SUFFIX };
  }

  private invalid(method: MethodContract, path: readonly string[], reason: string): WireError {
    const field = path[0];
    if (method.document.profile === 'hermes' && field !== undefined) {
      const refusal = DOMAIN_REFUSALS[method.name]?.[field];
      if (refusal) return refusal;
    }
    const loc = path.length === 0 ? 'params' : path.join('.');
    return { code: ErrorCode.INVALID_PARAMS, message: `invalid params for ${method.name}: ${loc}: ${reason}` };
  }
}
