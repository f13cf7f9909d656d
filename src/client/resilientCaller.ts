import type { GatewayEventParams, RpcId } from '../rpc/messages.js';
import type { EventFilter } from './eventLog.js';
import type { Exchange } from './exchange.js';
import type { RpcClient } from './rpcClient.js';

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

  async call(method: string, params?: unknown, options: { id?: RpcId; timeoutMs?: number } = {}): Promise<Exchange> {
    return (await this.client()).call(method, params, options);
  }

  async waitForEvent(filter: EventFilter, timeoutMs?: number): Promise<GatewayEventParams> {
    return (await this.client()).waitForEvent(filter, timeoutMs);
  }

  async close(): Promise<void> {
    await this.current?.close();
  }
}
