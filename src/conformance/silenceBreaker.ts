import type { RpcCaller } from '../binding/binder.js';
import type { EventFilter } from '../client/eventLog.js';
import type { Exchange, WireEvent } from '../../core/index.js';

/** Requests in a row that may go unanswered before the rest of a method's cases are skipped. */
export const SILENT_REQUESTS_LIMIT = 3;

/** No answer, and it cost a full request timeout (a timeout, or a connection that hung and then dropped). */
function silent(exchange: Exchange, timeoutMs: number): boolean {
  if (!exchange.failure || exchange.response !== undefined) return false;
  return exchange.failure.code === 'REQUEST_TIMEOUT' || exchange.elapsedMs >= timeoutMs;
}

/**
 * Wraps the caller of one method run: once the target has left {@link SILENT_REQUESTS_LIMIT} requests in a row
 * unanswered, further calls are not sent and fail at once with a message saying so. A target that never answers
 * then costs a few timeouts per method instead of one per case (tens of minutes for a contract at 5 s each).
 */
export class SilenceBreaker implements RpcCaller {
  readonly waitForEvent?: (filter: EventFilter, timeoutMs?: number) => Promise<WireEvent>;
  private silentInARow = 0;
  private readonly unsent = new WeakSet<Exchange>();

  constructor(
    private readonly caller: RpcCaller,
    private readonly timeoutMs: number,
    private readonly limit = SILENT_REQUESTS_LIMIT,
  ) {
    const wait = caller.waitForEvent?.bind(caller);
    if (wait) this.waitForEvent = wait;
  }

  /** The target stopped answering: calls are no longer sent. */
  get open(): boolean {
    return this.silentInARow >= this.limit;
  }

  /** True for the exchanges this breaker answered itself. */
  notSent(exchange: Exchange): boolean {
    return this.unsent.has(exchange);
  }

  call(method: string, params?: unknown, options: { timeoutMs?: number; paramsText?: string } = {}): Promise<Exchange> {
    if (this.open) {
      const exchange: Exchange = {
        conn: '-',
        method,
        id: null,
        params,
        requestText: JSON.stringify({ jsonrpc: '2.0', method, ...(params !== undefined ? { params } : {}) }),
        elapsedMs: 0,
        correlation: 'none',
        failure: {
          code: 'REQUEST_TIMEOUT',
          message: `[REQUEST_TIMEOUT] ${method} was not sent: the target left the last ${this.limit} requests unanswered (${options.timeoutMs ?? this.timeoutMs} ms each), so the rest of this method's cases were skipped`,
        },
      };
      this.unsent.add(exchange);
      return Promise.resolve(exchange);
    }
    return this.caller.call(method, params, options).then((exchange) => {
      this.silentInARow = silent(exchange, options.timeoutMs ?? this.timeoutMs) ? this.silentInARow + 1 : 0;
      return exchange;
    });
  }
}
