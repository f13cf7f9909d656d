import type { GatewayConnection } from './gatewayConnection.js';

/** One JSON frame on its way in, parsed, before the envelope rules look at it. */
export interface InboundFrame {
  readonly text: string;
  readonly value: unknown;
}

/** `{value}` is dispatched (changed or not), `{reply}` is sent instead of dispatching, `'drop'` is neither run nor answered. */
export type InboundDecision = { readonly value: unknown } | { readonly reply: Record<string, unknown> } | 'drop';

export type InboundInterceptor = (frame: InboundFrame, connection: GatewayConnection) => InboundDecision;

/**
 * Every parsed frame passes here before dispatch, so that a fault layer can change a request, answer it itself or
 * swallow it. Interceptors run in installation order; each sees the value the previous one passed on.
 */
export class InboundGate {
  private readonly interceptors: InboundInterceptor[] = [];

  use(interceptor: InboundInterceptor): () => void {
    this.interceptors.push(interceptor);
    return () => {
      const index = this.interceptors.indexOf(interceptor);
      if (index >= 0) this.interceptors.splice(index, 1);
    };
  }

  admit(frame: InboundFrame, connection: GatewayConnection): InboundDecision {
    let value = frame.value;
    for (const interceptor of this.interceptors) {
      const decision = interceptor({ text: frame.text, value }, connection);
      if (decision === 'drop' || 'reply' in decision) return decision;
      value = decision.value;
    }
    return { value };
  }
}
