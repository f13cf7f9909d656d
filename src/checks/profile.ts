import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HarnessError, JsonRpcErrorCode } from '../../core/index.js';
import { PACKAGE_ROOT } from '../config/packagePaths.js';
import { HERMES_OUT_OF_SYNC_SUFFIX } from './hermesCodes.js';
import { extendProfileData, matchesRule, parseProfileData, type ProfileData } from './profileData.js';

/**
 * What a family of gateways answers, so that the same checks judge Hermes and plain JSON-RPC servers.
 * Policies about unknown keys come from the schemas; the profile only says which code and wording carry them.
 */
export interface ContractProfile {
  /** The behaviour family the checks apply. */
  name: 'hermes' | 'json-rpc';
  /** The profile's own name (a built-in's is its family; a --profile file names itself). */
  label: string;
  /** The data it was built from (profiles/*.json or a --profile file). */
  data: ProfileData;
  /** Codes the method being judged declares in its `errors` (see withDeclaredErrors). */
  declaredErrorCodes?: readonly number[];
  /** Code of an unknown-key rejection by a closed model. */
  unknownKeyCode: number;
  /** Does the rejection message name this dotted path the way the profile requires? */
  unknownKeyMessageMatches(method: string, dottedPath: string, message: string, data: unknown): boolean;
  /** The exact message(s) the profile expects, for failure details. */
  unknownKeyMessageExample(method: string, dottedPath: string): string;
  /** Codes meaning "the params break the contract". */
  isContractRejection(code: number): boolean;
  /** Codes meaning "the server failed" (never acceptable for valid input). */
  isServerError(code: number, message?: string): boolean;
  /** What the handler may answer for a valid payload (not found, busy, …); consulted before the server errors. */
  isDomainError(code: number, message?: string): boolean;
  unknownMethodMessageMatches(method: string, message: string): boolean;
  /** Codes accepted for a malformed request (wrong jsonrpc, missing method, batch array). */
  invalidRequestCodes: readonly number[];
  /** The target sends `gateway.ready` first and emits `event` notifications. */
  hasGatewayEvents: boolean;
  /** What an undeclared top-level param of a by-name method meets (see ProfileData.byNameParams). */
  byNameTopLevel: 'closed' | 'unspecified';
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

/** The checks' view of a profile file (see profileData.ts for the format). */
export function profileFromData(data: ProfileData): ContractProfile {
  const family = data.family ?? data.extends ?? 'json-rpc';
  const unknownKey = data.unknownKey ?? { code: JsonRpcErrorCode.INVALID_PARAMS, namesPath: true };
  const suffix = { outOfSyncSuffix: HERMES_OUT_OF_SYNC_SUFFIX };
  const serverErrors = data.serverErrors ?? [];
  const domainErrors = data.domainErrors ?? [];
  const rejections = new Set(data.contractRejectionCodes ?? [JsonRpcErrorCode.INVALID_PARAMS, JsonRpcErrorCode.INVALID_REQUEST]);
  return {
    name: family,
    label: data.name,
    data,
    unknownKeyCode: unknownKey.code,
    unknownKeyMessageMatches(method, dottedPath, message, payload) {
      if (unknownKey.messages) return unknownKey.messages.some((template) => fill(template, { ...suffix, method, path: dottedPath }) === message);
      const key = dottedPath.split('.').pop() ?? dottedPath;
      const pattern = new RegExp(`(^|[^A-Za-z0-9_])(${escape(dottedPath)}|${escape(key)})([^A-Za-z0-9_]|$)`);
      return pattern.test(message) || (payload !== undefined && pattern.test(JSON.stringify(payload)));
    },
    unknownKeyMessageExample(method, dottedPath) {
      const last = unknownKey.messages?.at(-1);
      return last ? fill(last, { ...suffix, method, path: dottedPath }) : `${unknownKey.code} with a message or data naming "${dottedPath}"`;
    },
    isContractRejection: (code) => rejections.has(code),
    isServerError: (code, message) => serverErrors.some((rule) => matchesRule(rule, code, message)),
    isDomainError: (code, message) => domainErrors.some((rule) => matchesRule(rule, code, message)),
    unknownMethodMessageMatches(method, message) {
      return data.unknownMethodMessages === undefined || data.unknownMethodMessages.some((template) => fill(template, { ...suffix, method }) === message);
    },
    invalidRequestCodes: data.invalidRequestCodes ?? [JsonRpcErrorCode.INVALID_REQUEST],
    hasGatewayEvents: data.gatewayEvents ?? false,
    byNameTopLevel: data.byNameParams ?? 'unspecified',
  };
}

/** A method's view of the profile: the codes it declares in its OpenRPC `errors` are its domain errors, whatever their range. */
export function withDeclaredErrors(profile: ContractProfile, errors: ReadonlyArray<{ code: number }>): ContractProfile {
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

function builtInData(name: 'hermes' | 'json-rpc'): ProfileData {
  const path = join(PACKAGE_ROOT, 'profiles', `${name}.json`);
  return parseProfileData(JSON.parse(readFileSync(path, 'utf8')), path);
}

const builtIns = new Map<string, ContractProfile>();

function builtIn(name: 'hermes' | 'json-rpc'): ContractProfile {
  let profile = builtIns.get(name);
  if (!profile) {
    profile = profileFromData(builtInData(name));
    builtIns.set(name, profile);
  }
  return profile;
}

/** A `--profile FILE`: its own data on top of the built-in profile it extends (default: plain JSON-RPC). */
export function loadProfileFile(path: string): ContractProfile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new HarnessError('USAGE', `--profile ${path}: ${(error as Error).message}`);
  }
  const data = parseProfileData(raw, path);
  return profileFromData(extendProfileData(builtInData(data.extends ?? data.family ?? 'json-rpc'), data));
}

export const HERMES_PROFILE: ContractProfile = builtIn('hermes');
export const JSON_RPC_PROFILE: ContractProfile = builtIn('json-rpc');

export const HERMES_CONTRACT_TITLE = 'Hermes TUI/Desktop gateway';

/** Hermes documents are recognised by their generator's title; anything else is judged as plain JSON-RPC. */
export function profileFor(title: string, requested?: string): ContractProfile {
  if (requested === 'hermes') return HERMES_PROFILE;
  if (requested === 'json-rpc') return JSON_RPC_PROFILE;
  if (requested !== undefined) return loadProfileFile(requested);
  return title === HERMES_CONTRACT_TITLE ? HERMES_PROFILE : JSON_RPC_PROFILE;
}
