export { type Clock, systemClock, type TimerHandle } from './clock.js';
export { splitCommandLine } from './commandLine.js';
export {
  authFor,
  internalAuth,
  noAuth,
  tokenAuth,
  type ConnectionAttempt,
  type ConnectionAuth,
  type ConnectionCredentials,
  type MintedTicket,
  type OpenedConnectionInfo,
  type TicketPresentation,
  type TicketSource,
} from './connectionAuth.js';
export { AUTH_MODES, connectionAuthFrom, describeAuth, secretFromEnv, ticketLoginOf, type AuthSettings, type TicketLogin } from './authSettings.js';
export { connectTarget, type ConnectTargetOptions } from './connectTarget.js';
export { EventLog, type EventFilter, type RecordedEvent } from './eventLog.js';
export { FlowControl, type FlowControlOptions, type FlowSlot, type SlotOutcome } from './flowControl.js';
export { HttpRpcClient, type HttpRpcClientOptions } from './httpClient.js';
export { HttpTransport } from './httpTransport.js';
export { Redactor, REDACTED } from './redact.js';
export {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_READY_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  RpcClient,
  type CloseInfo,
  type RpcClientOptions,
} from './rpcClient.js';
export { type ProtocolOptions, type StdioOptions } from './rpcClientOptions.js';
export { RpcProtocol, type CallOptions } from './rpcProtocol.js';
export {
  DEFAULT_SERVER_REQUEST_TIMEOUT_MS,
  type ServerRequest,
  type ServerRequestAnswer,
  type ServerRequestHandler,
  type ServerRequestRecord,
  type ServerRequestStatus,
  type UnhandledServerRequests,
} from './serverRequests.js';
export { StdioTransport } from './stdioTransport.js';
export { isHttpTarget, isStdioTarget, targetKind, tokenInUrl, withQuery, withToken, type TargetKind } from './targetUrl.js';
export { renderTranscriptLine, Transcript, type TranscriptDirection, type TranscriptEntry, type TranscriptStreaming } from './transcript.js';
export { fileTranscriptSink, type TranscriptSink } from './transcriptSink.js';
export { type Transport, type TransportClose, type TransportFrame } from './transport.js';
export { WebSocketTransport } from './wsTransport.js';
export { ResilientCaller } from './resilientCaller.js';
export { probeUpgrade, type UpgradeAttempt, type UpgradeOutcome } from './upgradeProbe.js';
