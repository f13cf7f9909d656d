import type { Exchange, WireEvent, JsonObject } from '../../../core/index.js';
import type { RpcClient, RpcClientOptions } from '../../../src/client/rpcClient.js';
import type { ServerRequestHandler } from '../../../src/client/serverRequests.js';
import type { SystemFactory } from '../../../src/stateful/engine/statefulTypes.js';
import type { ClientName } from './hermesModel.js';
import { type HermesPort, IdBook } from './hermesPort.js';

/** Opens one named connection to a system (the cell's `connect` fixture, or RpcClient.connect in the library). */
export type ConnectClient = (options: Partial<RpcClientOptions> & { name: string }) => Promise<RpcClient>;

export interface HermesSideOptions {
  readonly connect: ConnectClient;
  /** Label of the side in transcripts (`target`, `reference`). */
  readonly label: string;
  readonly requestTimeoutMs: number;
  readonly turnTimeoutMs: number;
  readonly settleTimeoutMs: number;
}

/** Answers the server requests a `/request` turn asks with a fixed, contract-valid choice. */
const answerServerRequest: ServerRequestHandler = async (request) => {
  const result: JsonObject = request.method === 'approval' ? { choice: 'once' } : { value: '' };
  return { result };
};

/** One system as the Hermes commands see it: up to two client connections, their events, and the id book. */
export class HermesSide implements HermesPort {
  readonly ids = new IdBook();
  readonly turnTimeoutMs: number;
  readonly settleTimeoutMs: number;
  private readonly clients = new Map<ClientName, RpcClient>();
  /** Every connection this side opened (closed at the end, dropped ones included). */
  private readonly opened: RpcClient[] = [];
  private generation = 0;

  constructor(private readonly options: HermesSideOptions) {
    this.turnTimeoutMs = options.turnTimeoutMs;
    this.settleTimeoutMs = options.settleTimeoutMs;
  }

  async open(client: ClientName): Promise<void> {
    if (this.clients.get(client)?.isOpen) return;
    this.generation += 1;
    const connection = await this.options.connect({ name: `${this.options.label}-${client}${this.generation}`, requestTimeoutMs: this.options.requestTimeoutMs, answerServerRequest });
    this.opened.push(connection);
    this.clients.set(client, connection);
    this.ids.swept.set(client, 0);
  }

  private client(name: ClientName): RpcClient {
    const client = this.clients.get(name);
    if (!client) throw new Error(`client ${name} of the ${this.options.label} is not connected`);
    return client;
  }

  call(client: ClientName, method: string, params: JsonObject): Promise<Exchange> {
    return this.client(client).call(method, params, { timeoutMs: this.options.requestTimeoutMs });
  }

  eventMark(client: ClientName): number {
    return this.clients.get(client)?.events.length ?? 0;
  }

  async waitEvent(client: ClientName, filter: { type: string; sessionId: string; since: number; where?: (event: WireEvent) => boolean }, timeoutMs: number): Promise<WireEvent | undefined> {
    const connection = this.clients.get(client);
    if (!connection) return undefined;
    return connection.events.waitFor({ type: filter.type, sessionId: filter.sessionId, since: filter.since, ...(filter.where ? { where: filter.where } : {}) }, timeoutMs).catch(() => undefined);
  }

  eventsSince(client: ClientName, sessionId: string, since: number): WireEvent[] {
    const connection = this.clients.get(client);
    if (!connection) return [];
    return connection.events.all({ since, ...(sessionId !== '' ? { sessionId } : {}) });
  }

  async reconnect(client: ClientName): Promise<void> {
    const connection = this.clients.get(client);
    if (connection) {
      connection.terminate();
      await connection.closed.catch(() => undefined);
      this.clients.delete(client);
    }
    await this.open(client);
  }

  async closeClient(client: ClientName): Promise<void> {
    const connection = this.clients.get(client);
    this.clients.delete(client);
    await connection?.close().catch(() => undefined);
  }

  /** Closes the sessions this side still holds live (best effort), then every connection. */
  async dispose(): Promise<void> {
    const closer = this.clients.get('a') ?? this.clients.get('b');
    if (closer?.isOpen) await Promise.all(this.ids.sessions.filter((id) => !id.startsWith('(')).map((id) => closer.call('session.close', { session_id: id }, { timeoutMs: 2_000 })));
    await Promise.all(this.opened.map((connection) => connection.close().catch(() => undefined)));
  }
}

/** A factory of fresh sides: one per sequence, client `a` connected from the start. */
export function hermesSides(options: HermesSideOptions): SystemFactory<HermesSide> {
  return {
    async open() {
      const side = new HermesSide(options);
      await side.open('a');
      return side;
    },
    close: (side) => side.dispose(),
  };
}
