export type {
  GatewayEventParams,
  JsonObject,
  JsonValue,
  RpcErrorObject,
  RpcFailure,
  RpcId,
  RpcNotification,
  RpcRequest,
  RpcResponse,
  RpcSuccess,
} from './messages.js';
export { isJsonObject, looksLikeNotification, looksLikeResponse } from './messages.js';
export { HermesErrorCode, HERMES_OUT_OF_SYNC_SUFFIX, isReservedCode, isReservedServerCode, JsonRpcErrorCode } from './errorCodes.js';
export { HarnessError, type HarnessErrorCode } from './harnessError.js';
export { RpcError } from './rpcError.js';
