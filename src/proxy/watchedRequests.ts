import { rpcIdKey, rpcIdText, RpcIdIndex, type Correlation, type RpcId, type WireEvent } from '../../core/index.js';
import type { ContractMethod } from '../contracts/contractModel.js';
import type { ObservedRequest } from './findings.js';
import type { RequestShape } from './requestShape.js';

/** A request of the watched client, waiting for its answer, with what its params are under each contract. */
export interface WatchedRequest {
  readonly id: RpcId;
  request: ObservedRequest;
  shape: RequestShape;
  clientShape?: RequestShape;
}

/** A request the gateway sent the client, waiting for the client's answer. */
export interface PendingServerRequest {
  method: string;
  declared: ContractMethod | undefined;
  id: RpcId;
  params: unknown;
  text: string;
  at: number;
}

/** Answered requests remembered per connection, to recognise a second answer. */
const REMEMBERED_ANSWERS = 1_000;

/**
 * What the judge keeps about one watched connection: open requests both ways, found by the id rule the client
 * uses (`core/rpcId.ts`), the requests answered lately, and the sessions and events seen on it.
 */
export class WatchedConnection {
  readonly pending = new RpcIdIndex<WatchedRequest>();
  readonly serverPending = new RpcIdIndex<PendingServerRequest>();
  readonly lastEvent = new Map<string, WireEvent>();
  readonly createdHere = new Set<string>();
  readonly liveSessions = new Set<string>();
  /** Answered requests by id key, oldest first (bounded), and their keys by id text. */
  private readonly answered = new Map<string, { method: string; text: string | undefined }>();
  private readonly answeredByText = new Map<string, string>();

  /** The open request an answer with this id settles: same id, else same id as text, else the only one open. */
  takeAnswered(id: unknown): { entry: WatchedRequest; correlation: Correlation } | undefined {
    const exact = this.pending.exact(id);
    const loose = exact ? undefined : this.pending.loose(id);
    const sole = exact || loose || this.answeredMethod(id) !== undefined ? undefined : this.pending.sole();
    const entry = exact ?? loose ?? sole;
    if (!entry) return undefined;
    this.pending.delete(entry);
    this.remember(entry);
    return { entry, correlation: exact ? 'exact' : loose ? 'loose' : 'sole-pending' };
  }

  /** The method of an answered request this id names (same id or same id as text); a null id names none. */
  answeredMethod(id: unknown): string | undefined {
    const key = rpcIdKey(id);
    if (key === undefined || id === null) return undefined;
    const text = rpcIdText(id);
    const looseKey = text === undefined ? undefined : this.answeredByText.get(text);
    return (this.answered.get(key) ?? (looseKey === undefined ? undefined : this.answered.get(looseKey)))?.method;
  }

  /** The gateway's request a client answer with this id settles (same id, else same id as text). */
  takeServerRequest(id: unknown): PendingServerRequest | undefined {
    const asked = this.serverPending.exact(id) ?? this.serverPending.loose(id);
    if (asked) this.serverPending.delete(asked);
    return asked;
  }

  private remember(entry: WatchedRequest): void {
    if (entry.id === null) return;
    const key = rpcIdKey(entry.id);
    const text = rpcIdText(entry.id);
    this.answered.delete(key);
    this.answered.set(key, { method: entry.request.method, text });
    if (text !== undefined) this.answeredByText.set(text, key);
    if (this.answered.size <= REMEMBERED_ANSWERS) return;
    const [oldest] = this.answered.entries();
    if (!oldest) return;
    const [oldestKey, { text: oldestText }] = oldest;
    this.answered.delete(oldestKey);
    if (oldestText !== undefined && this.answeredByText.get(oldestText) === oldestKey) this.answeredByText.delete(oldestText);
  }
}
