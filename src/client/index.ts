export { EventLog, type EventFilter, type RecordedEvent } from './eventLog.js';
export { HttpRpcClient, type HttpRpcClientOptions } from './httpClient.js';
export { Redactor, REDACTED } from './redact.js';
export {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_READY_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  RpcClient,
  type CloseInfo,
  type RpcClientOptions,
} from './rpcClient.js';
export { isHttpTarget, tokenInUrl, withToken } from './targetUrl.js';
export { Transcript, type TranscriptDirection, type TranscriptEntry } from './transcript.js';
export { ResilientCaller } from './resilientCaller.js';
