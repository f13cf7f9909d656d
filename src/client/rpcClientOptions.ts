import type { Transcript } from './transcript.js';

export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_READY_TIMEOUT_MS = 1_000;
export const DEFAULT_MAX_FRAME_BYTES = 256 * 1024 * 1024;
/** Events of one connection written to the transcript; beyond this a flood is counted, not transcribed. */
export const MAX_TRANSCRIBED_EVENTS = 5_000;
export const MAX_STRAY_FRAMES = 1_000;

export interface RpcClientOptions {
  url: string;
  token?: string;
  /** Connection label in transcripts. */
  name?: string;
  origin?: string;
  requestTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** How long to wait for a `gateway.ready` first frame; 0 = do not wait. */
  readyTimeoutMs?: number;
  /** Shared transcript (several connections of one test write into one). */
  transcript?: Transcript;
  /** Extra secrets to redact besides the token. */
  secrets?: string[];
  idPrefix?: string;
  /** Upper bound of retained events (a flooding target cannot exhaust memory). */
  maxEvents?: number;
  /** Upper bound of the retained events' frame text, in characters (default 64 Mi). */
  maxEventChars?: number;
  /** Largest frame accepted from the target; a larger one drops the connection (default 256 MiB). */
  maxFrameBytes?: number;
}
