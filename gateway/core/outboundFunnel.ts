import type { GatewayConnection } from './gatewayConnection.js';
import { SerialisedTexts } from './serialisedTexts.js';

export type OutboundKind = 'ready' | 'response' | 'event' | 'request';

/** One frame on its way out, with what an interceptor needs to know about it. */
export interface OutboundFrame {
  readonly kind: OutboundKind;
  readonly frame: Record<string, unknown>;
  /** The request method a response answers, or the method of a server→client request. */
  readonly method?: string;
  /** The request params a response answers (as received). */
  readonly params?: unknown;
  /** The session an event or a server→client request belongs to. */
  readonly sessionId?: string;
}

/**
 * Returns the frames to send instead: `[]` drops, two copies duplicate, a changed frame rewrites. A change is a new
 * frame object: the frame passed in is never modified in place (its serialised text may already exist).
 */
export type FrameInterceptor = (frame: OutboundFrame, connection: GatewayConnection) => OutboundFrame[];

/** Every frame the gateway sends passes here, so that a fault layer can rewrite, drop or duplicate it. */
export class OutboundFunnel {
  private readonly interceptors: FrameInterceptor[] = [];

  /** `texts`: values already serialised once, written into a frame by their texts. */
  constructor(readonly texts = new SerialisedTexts()) {}

  use(interceptor: FrameInterceptor): () => void {
    this.interceptors.push(interceptor);
    return () => {
      const index = this.interceptors.indexOf(interceptor);
      if (index >= 0) this.interceptors.splice(index, 1);
    };
  }

  /** `text`, when given, is `outbound.frame` already serialised: sent as it is wherever no interceptor changed the frame. */
  send(connection: GatewayConnection, outbound: OutboundFrame, text?: string): void {
    if (!connection.open) return;
    let frames = [outbound];
    for (const interceptor of this.interceptors) frames = frames.flatMap((frame) => interceptor(frame, connection));
    for (const frame of frames) connection.link.send(text !== undefined && frame.frame === outbound.frame ? text : this.texts.stringifyFrame(frame.frame));
  }
}
