import type { GatewayConnection } from './gatewayConnection.js';

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

/** Returns the frames to send instead: `[]` drops, two copies duplicate, a changed frame rewrites. */
export type FrameInterceptor = (frame: OutboundFrame, connection: GatewayConnection) => OutboundFrame[];

/** Every frame the gateway sends passes here, so that a fault layer can rewrite, drop or duplicate it. */
export class OutboundFunnel {
  private readonly interceptors: FrameInterceptor[] = [];

  use(interceptor: FrameInterceptor): () => void {
    this.interceptors.push(interceptor);
    return () => {
      const index = this.interceptors.indexOf(interceptor);
      if (index >= 0) this.interceptors.splice(index, 1);
    };
  }

  send(connection: GatewayConnection, outbound: OutboundFrame): void {
    if (!connection.open) return;
    let frames = [outbound];
    for (const interceptor of this.interceptors) frames = frames.flatMap((frame) => interceptor(frame, connection));
    for (const frame of frames) connection.link.send(JSON.stringify(frame.frame));
  }
}
