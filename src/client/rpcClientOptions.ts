import type { Clock } from './clock.js';
import type { ConnectionAuth } from './connectionAuth.js';
import type { FlowControl } from './flowControl.js';
import type { ServerRequestHandler, UnhandledServerRequests } from './serverRequests.js';
import type { Transcript } from './transcript.js';
import type { WireDialect } from '../../core/wireDialect.js';

export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_READY_TIMEOUT_MS = 1_000;
export const DEFAULT_MAX_FRAME_BYTES = 256 * 1024 * 1024;
/** Events of one connection written to the transcript; beyond this a flood is counted, not transcribed. */
export const MAX_TRANSCRIBED_EVENTS = 5_000;
export const MAX_STRAY_FRAMES = 1_000;
export const DEFAULT_MAX_EVENTS = 50_000;
export const DEFAULT_MAX_EVENT_CHARS = 64 * 1024 * 1024;

/** What the JSON-RPC protocol of one connection needs, whatever carries it. */
export interface ProtocolOptions {
  /** Connection label in transcripts. */
  name?: string;
  requestTimeoutMs?: number;
  idPrefix?: string;
  /** Upper bound of retained events (a flooding target cannot exhaust memory). */
  maxEvents?: number;
  /** Upper bound of the retained events' frame text, in characters (default 64 Mi). */
  maxEventChars?: number;
  /** Shared by the connections to one target: requests outstanding and sent per second. */
  flowControl?: FlowControl;
  /** Answers server→client requests; without it they get -32601, or nothing with `unhandledServerRequests: 'ignore'`. */
  answerServerRequest?: ServerRequestHandler;
  unhandledServerRequests?: UnhandledServerRequests;
  /** How long the handler may take before the request is answered with an error (default 5 s). */
  serverRequestTimeoutMs?: number;
  /** Time and timers (tests drive them by hand). */
  clock?: Clock;
  /** How the target carries events and which event opens a connection (default: plain JSON-RPC notifications). */
  dialect?: WireDialect;
}

export interface StdioOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** How long a closing child may take to exit after its stdin ended, before SIGTERM (default 2 s). */
  closeGraceMs?: number;
  /**
   * Continue a child an earlier connection of the same command line left running, and leave this one's running
   * when it closes with nothing outstanding (every request answered): one start-up for many connections. Default: off.
   */
  reuse?: boolean;
}

export interface RpcClientOptions extends ProtocolOptions {
  /** `ws(s)://…`, or `stdio:<command line>` for a gateway spoken to over a child's stdin and stdout. */
  url: string;
  token?: string;
  /** How the connection authenticates; default: the token kind when `token` is set, else none. */
  auth?: ConnectionAuth;
  origin?: string;
  connectTimeoutMs?: number;
  /** How long to wait for the dialect's first event (when it has one); 0 = do not wait. */
  readyTimeoutMs?: number;
  /** Shared transcript (several connections of one test write into one). */
  transcript?: Transcript;
  /** Extra secrets to redact besides the token. */
  secrets?: string[];
  /** Largest frame accepted from the target; a larger one drops the connection (default 256 MiB). */
  maxFrameBytes?: number;
  stdio?: StdioOptions;
}
