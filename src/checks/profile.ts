import { isReservedServerCode, JsonRpcErrorCode } from '../../core/index.js';
import { HERMES_OUT_OF_SYNC_SUFFIX } from './hermesCodes.js';

/**
 * What a family of gateways answers, so that the same checks judge Hermes and plain JSON-RPC servers.
 * Policies about unknown keys come from the schemas; the profile only says which code and wording carry them.
 */
export interface ContractProfile {
  name: 'hermes' | 'json-rpc';
  /** Code of an unknown-key rejection by a closed model. */
  unknownKeyCode: number;
  /** Does the rejection message name this dotted path the way the profile requires? */
  unknownKeyMessageMatches(method: string, dottedPath: string, message: string, data: unknown): boolean;
  /** The exact message(s) the profile expects, for failure details. */
  unknownKeyMessageExample(method: string, dottedPath: string): string;
  /** Codes meaning "the params break the contract". */
  isContractRejection(code: number): boolean;
  /** Codes meaning "the server failed" (never acceptable for valid input). */
  isServerError(code: number): boolean;
  /** Everything else the handler may answer for a valid payload (not found, busy, …). */
  isDomainError(code: number): boolean;
  unknownMethodMessageMatches(method: string, message: string): boolean;
  /** Codes accepted for a malformed request (wrong jsonrpc, missing method, batch array). */
  invalidRequestCodes: readonly number[];
  /** The target sends `gateway.ready` first and emits `event` notifications. */
  hasGatewayEvents: boolean;
  /**
   * What an undeclared top-level param of a by-name method meets. OpenRPC's by-name descriptors cannot say;
   * Hermes validates params with the method's Pydantic model, which forbids extra inputs (`registry.validate_params`).
   */
  byNameTopLevel: 'closed' | 'unspecified';
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const HERMES_PROFILE: ContractProfile = {
  name: 'hermes',
  unknownKeyCode: 4000,
  unknownKeyMessageMatches(method, dottedPath, message) {
    // v0.21.4+ append the out-of-sync suffix; v0.21.3 servers sent the same text without it.
    const base = `invalid params for ${method}: ${dottedPath}: Extra inputs are not permitted`;
    return message === base || message === `${base}${HERMES_OUT_OF_SYNC_SUFFIX}`;
  },
  unknownKeyMessageExample(method, dottedPath) {
    return `invalid params for ${method}: ${dottedPath}: Extra inputs are not permitted${HERMES_OUT_OF_SYNC_SUFFIX}`;
  },
  isContractRejection: (code) => code === 4000 || code === JsonRpcErrorCode.INVALID_PARAMS || code === JsonRpcErrorCode.INVALID_REQUEST,
  isServerError: (code) => code === JsonRpcErrorCode.INTERNAL_ERROR || isReservedServerCode(code) || (code >= 5000 && code <= 5999),
  isDomainError: (code) => code >= 4001 && code <= 4999,
  unknownMethodMessageMatches(method, message) {
    const base = `unknown method: ${method}`;
    return message === base || message === `${base}${HERMES_OUT_OF_SYNC_SUFFIX}`;
  },
  invalidRequestCodes: [JsonRpcErrorCode.INVALID_REQUEST],
  hasGatewayEvents: true,
  byNameTopLevel: 'closed',
};

export const JSON_RPC_PROFILE: ContractProfile = {
  name: 'json-rpc',
  unknownKeyCode: JsonRpcErrorCode.INVALID_PARAMS,
  unknownKeyMessageMatches(_method, dottedPath, message, data) {
    const key = dottedPath.split('.').pop() ?? dottedPath;
    const pattern = new RegExp(`(^|[^A-Za-z0-9_])(${escape(dottedPath)}|${escape(key)})([^A-Za-z0-9_]|$)`);
    return pattern.test(message) || (data !== undefined && pattern.test(JSON.stringify(data)));
  },
  unknownKeyMessageExample(_method, dottedPath) {
    return `-32602 with a message or data naming "${dottedPath}"`;
  },
  isContractRejection: (code) => code === JsonRpcErrorCode.INVALID_PARAMS || code === JsonRpcErrorCode.INVALID_REQUEST,
  isServerError: (code) => code === JsonRpcErrorCode.INTERNAL_ERROR || isReservedServerCode(code),
  isDomainError: (code) => !(code >= -32768 && code <= -32000),
  unknownMethodMessageMatches: () => true,
  // Servers differ on params of the wrong JSON type (-32600 for the request shape, -32602 for the params); both refuse it.
  invalidRequestCodes: [JsonRpcErrorCode.INVALID_REQUEST, JsonRpcErrorCode.INVALID_PARAMS],
  hasGatewayEvents: false,
  byNameTopLevel: 'unspecified',
};

export const HERMES_CONTRACT_TITLE = 'Hermes TUI/Desktop gateway';

/** Hermes documents are recognised by their generator's title; anything else is judged as plain JSON-RPC. */
export function profileFor(title: string, requested?: string): ContractProfile {
  if (requested === 'hermes') return HERMES_PROFILE;
  if (requested === 'json-rpc') return JSON_RPC_PROFILE;
  return title === HERMES_CONTRACT_TITLE ? HERMES_PROFILE : JSON_RPC_PROFILE;
}
