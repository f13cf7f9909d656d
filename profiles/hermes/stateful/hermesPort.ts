import type { Exchange, WireEvent, JsonObject } from '../../../core/index.js';
import type { ClientName } from './hermesModel.js';

/**
 * What the Hermes commands need from one system (a target or a reference): calls on a named client connection,
 * the events each connection received, connections that drop and reopen, and the book that maps the model's
 * references to this system's ids. The runner implements it over RpcClient (src/stateful/runner/).
 */
export interface HermesPort {
  call(client: ClientName, method: string, params: JsonObject): Promise<Exchange>;
  /** Index into the client's event log, to wait for events after it. */
  eventMark(client: ClientName): number;
  /** Waits for an event of `type` for `sessionId` after `since`; undefined after `timeoutMs`. */
  waitEvent(client: ClientName, filter: { type: string; sessionId: string; since: number; where?: (event: WireEvent) => boolean }, timeoutMs: number): Promise<WireEvent | undefined>;
  /** Events of `sessionId` the client received from `since` on. */
  eventsSince(client: ClientName, sessionId: string, since: number): WireEvent[];
  /** Abnormal drop of the connection (no close frame), then a new connection under the same name. */
  reconnect(client: ClientName): Promise<void>;
  /** Opens the named connection if it is not open. */
  open(client: ClientName): Promise<void>;
  /** Clean close of the named connection. */
  closeClient(client: ClientName): Promise<void>;
  readonly ids: IdBook;
  /** How long a turn of the fake agent may take before the model calls it lost. */
  readonly turnTimeoutMs: number;
  /** How long to wait for an event that may never come (a `session.info` a foreign gateway does not send). */
  readonly settleTimeoutMs: number;
}

/** The ids this system handed out, by model reference, and what its clients have seen. */
export class IdBook {
  /** Runtime session id by model session index. */
  readonly sessions: string[] = [];
  /** Stored key by model row index. */
  readonly rows: string[] = [];
  /** Every id this system handed out during the sequence. */
  readonly issued = new Set<string>();
  /** Highest seq received live per runtime id, across all connections. */
  readonly seqSeen = new Map<string, number>();
  /** How many events of each connection's log were already swept for seq. */
  readonly swept = new Map<ClientName, number>();

  session(index: number): string {
    return this.sessions[index] ?? `(no session ${index})`;
  }

  row(index: number): string {
    return this.rows[index] ?? `(no row ${index})`;
  }

  /** The model reference of an id this system handed out (`s1`, `r2`), or `other` for one the model never saw. */
  refOf(id: unknown): string {
    if (typeof id !== 'string') return JSON.stringify(id ?? null);
    const session = this.sessions.indexOf(id);
    if (session >= 0) return `s${session}`;
    const row = this.rows.indexOf(id);
    return row >= 0 ? `r${row}` : 'other';
  }
}
