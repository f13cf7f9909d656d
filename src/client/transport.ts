/** How a transport ended: the close code and reason, and the words messages use for it. */
export interface TransportClose {
  /** WebSocket close code; for a child process its exit code, or 128 + the signal number. */
  code: number;
  reason: string;
  /** Replaces `code N, "reason"` in messages and the transcript (a child: "the process exited with code 3"). */
  description?: string;
  /** Why this side dropped the connection (a frame over the limit, a protocol violation), when it did. */
  localFault?: string;
  /** More text for connection errors (a child's last stderr lines). */
  detail?: string;
}

/**
 * What a transport delivers: a frame of text, optionally the reply to one sent request (HTTP: the body of that
 * request's POST), or a sent request the transport could not deliver (HTTP: the POST failed).
 */
export type TransportFrame = { text: string; replyTo?: number } | { replyTo: number; undelivered: string };

/** Moves JSON-RPC text to and from a target; knows nothing of ids, requests or events. */
export interface Transport {
  readonly kind: 'ws' | 'http' | 'stdio';
  /** The target as shown in messages, secrets already redacted. */
  readonly label: string;
  readonly isOpen: boolean;
  /** The WebSocket subprotocol the server selected ('' when none); undefined where there is no such thing. */
  readonly selectedProtocol: string | undefined;
  /** `replyTo` marks a request whose answer the transport can attribute itself (HTTP). */
  send(text: string, replyTo?: number): void;
  /** The protocol no longer waits for the answer to `replyTo` (it timed out): the transport may drop it. */
  cancel?(replyTo: number): void;
  /**
   * Ends this connection but leaves the target running for the next connection (a spawned child kept for reuse);
   * false when the transport cannot, and then nothing was done. Called only for a connection with nothing outstanding.
   */
  keepForReuse?(): boolean;
  /** Clean close (WebSocket close frame; a child: end of stdin, then SIGTERM after a grace period). */
  close(code?: number, reason?: string): Promise<void>;
  /** Abnormal drop: no close handshake (the peer sees 1006; a child is killed). */
  terminate(): void;
  onFrame(listener: (frame: TransportFrame) => void): void;
  /** Connection events worth a transcript line (socket errors, a child's stderr). */
  onNote(listener: (text: string) => void): void;
  /** Called once, when the transport is closed for good. */
  onClose(listener: (info: TransportClose) => void): void;
}
