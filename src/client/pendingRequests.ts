import type { Exchange, RpcId } from '../../core/index.js';
import type { TimerHandle } from './clock.js';
import type { FlowSlot } from './flowControl.js';

export interface PendingRequest {
  /** Identifies the request towards the transport (HTTP attributes a POST's body to it). */
  serial: number;
  id: RpcId;
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
  private readonly byKey = new Map<string, Set<number>>();

  get size(): number {
    return this.bySerial.size;
  }

  add(request: PendingRequest): void {
    this.bySerial.set(request.serial, request);
    const key = JSON.stringify(request.id);
    const serials = this.byKey.get(key) ?? new Set<number>();
    serials.add(request.serial);
    this.byKey.set(key, serials);
  }

  delete(request: PendingRequest): boolean {
    if (!this.bySerial.delete(request.serial)) return false;
    const key = JSON.stringify(request.id);
    const serials = this.byKey.get(key);
    serials?.delete(request.serial);
    if (serials?.size === 0) this.byKey.delete(key);
    return true;
  }

  get(serial: number): PendingRequest | undefined {
    return this.bySerial.get(serial);
  }

  /** The oldest open request with exactly this id. */
  exact(id: unknown): PendingRequest | undefined {
    const [serial] = this.byKey.get(JSON.stringify(id)) ?? [];
    return serial === undefined ? undefined : this.bySerial.get(serial);
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
