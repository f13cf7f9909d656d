import type { Exchange, WireEvent } from '../../core/index.js';
import type { EventFilter } from './eventLog.js';
import type { RpcClient } from './rpcClient.js';
import type { CallOptions } from './rpcProtocol.js';

/**
 * A caller that opens a new connection when the target dropped the previous one, so one method that closes
 * the socket (1011, a crash) fails its own exchange and not every exchange after it.
 */
export class ResilientCaller {
  private current: RpcClient | undefined;
  private opening: Promise<RpcClient> | undefined;
  /** Connections opened so far (1 = never reconnected). */
  connections = 0;

  constructor(private readonly open: () => Promise<RpcClient>) {}

  async client(): Promise<RpcClient> {
    if (this.current?.isOpen) return this.current;
    this.opening ??= this.open().then((client) => {
      this.current = client;
      this.connections++;
      this.opening = undefined;
      return client;
    });
    try {
      return await this.opening;
    } catch (error) {
      this.opening = undefined;
      throw error;
    }
  }

  /** Like RpcClient.call, never rejects: a connection that cannot be opened again is recorded as the exchange's failure. */
  call(method: string, params?: unknown, options: CallOptions = {}): Promise<Exchange> {
    // The common case goes straight to the open client: calls are sequential, each extra await is latency.
    if (this.current?.isOpen) return this.current.call(method, params, options);
    return this.callOnNewConnection(method, params, options);
  }

  private async callOnNewConnection(method: string, params: unknown, options: CallOptions): Promise<Exchange> {
    const started = Date.now();
    let client: RpcClient;
    try {
      client = await this.client();
    } catch (error) {
      const id = options.id ?? null;
      const reason = (error instanceof Error ? error.message : String(error)).replace(/^\[[A-Z_]+\] /, '');
      return {
        conn: this.current?.name ?? '-',
        method,
        id,
        params,
        requestText: JSON.stringify({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) }),
        elapsedMs: Date.now() - started,
        correlation: 'none',
        failure: { code: 'CONNECTION_CLOSED', message: `[CONNECTION_CLOSED] cannot send ${method}: the target dropped the connection and a new one could not be opened: ${reason}` },
      };
    }
    return client.call(method, params, options);
  }

  async waitForEvent(filter: EventFilter, timeoutMs?: number): Promise<WireEvent> {
    return (await this.client()).waitForEvent(filter, timeoutMs);
  }

  async close(): Promise<void> {
    await this.current?.close();
  }

  /** Ends the current connection at once, without asking its target (a stuck stdio process is killed); the next call opens another. */
  async drop(): Promise<void> {
    const client = this.current;
    if (!client?.isOpen) return;
    client.terminate();
    await client.closed;
  }
}
