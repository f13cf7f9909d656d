import { readFileSync } from 'node:fs';
import { HarnessError, JsonRpcErrorCode } from '../../core/index.js';
import { extendProfileData, matchesRule, parseProfileData, type ProfileData } from './codeProfileData.js';

/**
 * What a family of gateways answers: the codes and wording the judges accept for a contract rejection, a domain
 * error and a server error, so that the same checks judge every family. Policies about unknown keys come from the
 * schemas; the code profile only says which code and wording carry them. Built from a profile's `codes.json` (or a
 * `--profile FILE` on top of it).
 */
export interface CodeProfile {
  /** The profile's own name (a registered profile's, or the name a `--profile` file gives itself). */
  label: string;
  /** The data it was built from. */
  data: ProfileData;
  /** Codes the method being judged declares in its `errors` (see withDeclaredErrors). */
  declaredErrorCodes?: readonly number[];
  /** Code of an unknown-key rejection by a closed model. */
  unknownKeyCode: number;
  /** Does the rejection message name this dotted path the way the profile requires? */
  unknownKeyMessageMatches(method: string, dottedPath: string, message: string, data: unknown): boolean;
  /** The message the profile expects (its last, most complete wording, or its first), for failure details. */
  unknownKeyMessageExample(method: string, dottedPath: string, which?: 'first' | 'last'): string;
  /** Codes meaning "the params break the contract". */
  isContractRejection(code: number): boolean;
  /** Codes meaning "the server failed" (never acceptable for valid input). */
  isServerError(code: number, message?: string): boolean;
  /** What the handler may answer for a valid payload (not found, busy, …); consulted before the server errors. */
  isDomainError(code: number, message?: string): boolean;
  /** How reports name the domain errors ("a domain error (4001–4999)"). */
  domainErrorText: string;
  unknownMethodMessageMatches(method: string, message: string): boolean;
  /** The -32601 messages the profile accepts for `method`, for failure details (empty: any message). */
  unknownMethodMessageExamples(method: string): string[];
  /** Codes accepted for a malformed request (wrong jsonrpc, missing method, batch array). */
  invalidRequestCodes: readonly number[];
  /** Whether a malformed request must get one of those codes, or any error will do. */
  invalidRequestAnswer: 'codes' | 'any-error';
  /** How a batch (a JSON array frame) is answered: one response per member (JSON-RPC 2.0 §6), or one error. */
  batch: 'responses' | 'one-error';
  /** What an undeclared top-level param of a by-name method meets (see ProfileData.byNameParams). */
  byNameTopLevel: 'closed' | 'unspecified';
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

function describeRule(rule: { code?: number; from?: number; to?: number; meaning?: string }): string {
  if (rule.meaning) return rule.meaning;
  if (rule.code !== undefined) return String(rule.code);
  if (rule.from !== undefined && rule.to !== undefined) return `${rule.from}–${rule.to}`;
  return rule.from !== undefined ? `${rule.from} and above` : `${rule.to ?? ''} and below`;
}

/** The checks' view of a profile's codes (see codeProfileData.ts for the format). */
export function codeProfileFromData(data: ProfileData): CodeProfile {
  const unknownKey = data.unknownKey ?? { code: JsonRpcErrorCode.INVALID_PARAMS, namesPath: true };
  const placeholders = data.placeholders ?? {};
  const serverErrors = data.serverErrors ?? [];
  const domainErrors = data.domainErrors ?? [];
  const rejections = new Set(data.contractRejectionCodes ?? [JsonRpcErrorCode.INVALID_PARAMS, JsonRpcErrorCode.INVALID_REQUEST]);
  return {
    label: data.name,
    data,
    unknownKeyCode: unknownKey.code,
    unknownKeyMessageMatches(method, dottedPath, message, payload) {
      if (unknownKey.messages) return unknownKey.messages.some((template) => fill(template, { ...placeholders, method, path: dottedPath }) === message);
      const key = dottedPath.split('.').pop() ?? dottedPath;
      const pattern = new RegExp(`(^|[^A-Za-z0-9_])(${escape(dottedPath)}|${escape(key)})([^A-Za-z0-9_]|$)`);
      return pattern.test(message) || (payload !== undefined && pattern.test(JSON.stringify(payload)));
    },
    unknownKeyMessageExample(method, dottedPath, which = 'last') {
      const template = which === 'first' ? unknownKey.messages?.[0] : unknownKey.messages?.at(-1);
      return template ? fill(template, { ...placeholders, method, path: dottedPath }) : `${unknownKey.code} with a message or data naming "${dottedPath}"`;
    },
    isContractRejection: (code) => rejections.has(code),
    isServerError: (code, message) => serverErrors.some((rule) => matchesRule(rule, code, message)),
    isDomainError: (code, message) => domainErrors.some((rule) => matchesRule(rule, code, message)),
    domainErrorText: data.domainErrorText ?? `a domain error (${domainErrors.map(describeRule).join(', ') || 'none declared'})`,
    unknownMethodMessageMatches(method, message) {
      return data.unknownMethodMessages === undefined || data.unknownMethodMessages.some((template) => fill(template, { ...placeholders, method }) === message);
    },
    unknownMethodMessageExamples: (method) => (data.unknownMethodMessages ?? []).map((template) => fill(template, { ...placeholders, method })),
    invalidRequestCodes: data.invalidRequestCodes ?? [JsonRpcErrorCode.INVALID_REQUEST],
    invalidRequestAnswer: data.invalidRequestAnswer ?? 'codes',
    batch: data.batch ?? 'responses',
    byNameTopLevel: data.byNameParams ?? 'unspecified',
  };
}

/** A method's view of the profile: the codes it declares in its OpenRPC `errors` are its domain errors, whatever their range. */
export function withDeclaredErrors(profile: CodeProfile, errors: ReadonlyArray<{ code: number }>): CodeProfile {
  if (errors.length === 0) return profile;
  const declared = new Set(errors.map((error) => error.code));
  return {
    ...profile,
    isContractRejection: (code) => !declared.has(code) && profile.isContractRejection(code),
    isServerError: (code, message) => !declared.has(code) && profile.isServerError(code, message),
    isDomainError: (code, message) => declared.has(code) || profile.isDomainError(code, message),
    declaredErrorCodes: [...declared],
  };
}

/** A codes file (a profile's `codes.json`), checked. */
export function readProfileData(path: string, what = 'profile'): ProfileData {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new HarnessError('USAGE', `${what} ${path}: ${(error as Error).message}`);
  }
  return parseProfileData(raw, path);
}

/** A user's codes on top of the codes of the profile it extends. */
export function extendCodeProfile(base: CodeProfile, user: ProfileData): CodeProfile {
  return codeProfileFromData(extendProfileData(base.data, user));
}
