/** Standard JSON-RPC 2.0 error codes and the ranges the specification reserves. */
export const JsonRpcErrorCode = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
} as const;

/** -32099..-32000 is reserved for implementation-defined server errors. */
export function isReservedServerCode(code: number): boolean {
  return code >= -32099 && code <= -32000;
}

/** -32768..-32000 is reserved by the JSON-RPC 2.0 specification. */
export function isReservedCode(code: number): boolean {
  return code >= -32768 && code <= -32000;
}
