import type { Exchange, RpcId } from '../../core/index.js';
import type { TimerHandle } from './clock.js';
import type { FlowSlot } from './flowControl.js';

export interface PendingRequest {
  /** Identifies the request towards the transport (HTTP attributes a POST's body to it). */
  serial: number;
  id: RpcId;
  /** `JSON.stringify(id)`: the id as a lookup key (same JSON value, same key). */
  key: string;
  method: string;
  params: unknown;
  requestText: string;
  /** When it was sent (time spent waiting for a flow-control slot is not counted). */
  started: number;
  timer: TimerHandle;
  slot: FlowSlot | undefined;
  resolve: (exchange: Exchange) => void;
}

/** The open requests of one connection, found by exact id (same JSON value) or loosely (same id as text). */
export class PendingRequests {
  private readonly bySerial = new Map<number, PendingRequest>();
  /** Open requests per id key, oldest first; a lone request is held as it is (ids are nearly always unique). */
  private readonly byKey = new Map<string, PendingRequest | PendingRequest[]>();

  get size(): number {
    return this.bySerial.size;
  }

  add(request: PendingRequest): void {
    this.bySerial.set(request.serial, request);
    const held = this.byKey.get(request.key);
    if (held === undefined) this.byKey.set(request.key, request);
    else if (Array.isArray(held)) held.push(request);
    else this.byKey.set(request.key, [held, request]);
  }

  delete(request: PendingRequest): boolean {
    if (!this.bySerial.delete(request.serial)) return false;
    const held = this.byKey.get(request.key);
    if (held === request) this.byKey.delete(request.key);
    else if (Array.isArray(held)) {
      const rest = held.filter((other) => other !== request);
      if (rest.length === 0) this.byKey.delete(request.key);
      else this.byKey.set(request.key, rest.length === 1 ? (rest[0] as PendingRequest) : rest);
    }
    return true;
  }

  get(serial: number): PendingRequest | undefined {
    return this.bySerial.get(serial);
  }

  /** The oldest open request with exactly this id. */
  exact(id: unknown): PendingRequest | undefined {
    const held = this.byKey.get(JSON.stringify(id));
    return Array.isArray(held) ? held[0] : held;
  }

  /** The oldest open request whose id reads the same as text ("7" and 7). */
  loose(id: unknown): PendingRequest | undefined {
    const text = String(id);
    for (const request of this.bySerial.values()) if (String(request.id) === text) return request;
    return undefined;
  }

  /** The open request when there is exactly one. */
  sole(): PendingRequest | undefined {
    if (this.bySerial.size !== 1) return undefined;
    const [only] = this.bySerial.values();
    return only;
  }

  all(): PendingRequest[] {
    return [...this.bySerial.values()];
  }
}
