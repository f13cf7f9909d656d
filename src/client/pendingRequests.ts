import { RpcIdIndex, type Exchange, type RpcId } from '../../core/index.js';
import type { TimerHandle } from './clock.js';
import type { FlowSlot } from './flowControl.js';

export interface PendingRequest {
  /** Identifies the request towards the transport (HTTP attributes a POST's body to it). */
  serial: number;
  id: RpcId;
  /** `rpcIdKey(id)`: the id as a lookup key (same JSON value, same key). */
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

/** The open requests of one connection, found by serial or by id under the rule of `core/rpcId.ts`. */
export class PendingRequests {
  private readonly bySerial = new Map<number, PendingRequest>();
  private readonly byId = new RpcIdIndex<PendingRequest>();

  get size(): number {
    return this.bySerial.size;
  }

  add(request: PendingRequest): void {
    this.bySerial.set(request.serial, request);
    this.byId.add(request);
  }

  delete(request: PendingRequest): boolean {
    if (!this.bySerial.delete(request.serial)) return false;
    this.byId.delete(request);
    return true;
  }

  get(serial: number): PendingRequest | undefined {
    return this.bySerial.get(serial);
  }

  /** The oldest open request with exactly this id. */
  exact(id: unknown): PendingRequest | undefined {
    return this.byId.exact(id);
  }

  /** The oldest open request whose id reads the same as text ("7" and 7). */
  loose(id: unknown): PendingRequest | undefined {
    return this.byId.loose(id);
  }

  /** The open request when there is exactly one. */
  sole(): PendingRequest | undefined {
    return this.byId.sole();
  }

  all(): PendingRequest[] {
    return [...this.bySerial.values()];
  }
}
