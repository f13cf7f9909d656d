import { type Clock, systemClock, type TimerHandle } from './clock.js';

export type SlotOutcome = 'answered' | 'timeout' | 'closed';

/** The right to have one request outstanding; released once, when its exchange settles. */
export interface FlowSlot {
  release(outcome: SlotOutcome): void;
}

export interface FlowControlOptions {
  /** Requests outstanding at once over every connection sharing this object (default unlimited). */
  maxInFlight?: number;
  /** Requests sent per second, evenly spaced (default unlimited). */
  ratePerSecond?: number;
  clock?: Clock;
}

interface Waiter {
  enqueuedAt: number;
  grant(slot: FlowSlot): void;
}

/**
 * Admission for the requests of several connections to one target: at most `maxInFlight` outstanding and at
 * most `ratePerSecond` sent, first come first served. A request acquires a slot before it is sent and releases
 * it when its exchange settles (answer, timeout or close).
 */
export class FlowControl {
  /** Requests admitted (and so sent). */
  sent = 0;
  peakInFlight = 0;
  /** Admitted requests whose exchange ended in a timeout. */
  timeouts = 0;
  /** Time requests spent waiting for a slot, added up. */
  queuedMs = 0;
  private inFlightNow = 0;
  private readonly queue: Waiter[] = [];
  private readonly clock: Clock;
  private readonly maxInFlight: number;
  private readonly spacingMs: number;
  private nextSendAt = Number.NEGATIVE_INFINITY;
  private rateTimer: TimerHandle | undefined;

  constructor(options: FlowControlOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.maxInFlight = options.maxInFlight ?? Number.POSITIVE_INFINITY;
    this.spacingMs = options.ratePerSecond ? 1000 / options.ratePerSecond : 0;
    if (!(this.maxInFlight >= 1)) throw new RangeError(`maxInFlight must be at least 1, not ${options.maxInFlight}`);
    if (options.ratePerSecond !== undefined && !(options.ratePerSecond > 0)) throw new RangeError(`ratePerSecond must be positive, not ${options.ratePerSecond}`);
  }

  get inFlight(): number {
    return this.inFlightNow;
  }

  /** Requests waiting for a slot now. */
  get waiting(): number {
    return this.queue.length;
  }

  /** A slot now, or undefined when the request would have to wait (someone already waits, or no room). */
  tryAcquire(): FlowSlot | undefined {
    if (this.queue.length > 0 || !this.canSend()) return undefined;
    return this.admit(0);
  }

  /** Resolves with a slot in arrival order, or with undefined when `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<FlowSlot | undefined> {
    const now = this.tryAcquire();
    if (now) return Promise.resolve(now);
    if (signal?.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const onAbort = (): void => {
        const index = this.queue.indexOf(waiter);
        if (index >= 0) this.queue.splice(index, 1);
        resolve(undefined);
      };
      const waiter: Waiter = {
        enqueuedAt: this.clock.now(),
        grant: (slot) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(slot);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
      this.pump();
    });
  }

  private canSend(): boolean {
    return this.inFlightNow < this.maxInFlight && this.clock.now() >= this.nextSendAt;
  }

  private admit(waitedMs: number): FlowSlot {
    const now = this.clock.now();
    this.inFlightNow++;
    this.sent++;
    this.peakInFlight = Math.max(this.peakInFlight, this.inFlightNow);
    this.queuedMs += waitedMs;
    if (this.spacingMs > 0) this.nextSendAt = now + this.spacingMs;
    let released = false;
    return {
      release: (outcome) => {
        if (released) return;
        released = true;
        this.inFlightNow--;
        if (outcome === 'timeout') this.timeouts++;
        this.pump();
      },
    };
  }

  private pump(): void {
    while (this.queue.length > 0 && this.canSend()) {
      const waiter = this.queue.shift() as Waiter;
      waiter.grant(this.admit(this.clock.now() - waiter.enqueuedAt));
    }
    // Only the rate can be waited out by a timer; a full window waits for a release.
    if (this.queue.length > 0 && this.inFlightNow < this.maxInFlight && this.rateTimer === undefined) {
      this.rateTimer = this.clock.setTimeout(() => {
        this.rateTimer = undefined;
        this.pump();
      }, Math.max(0, this.nextSendAt - this.clock.now()));
    }
  }
}
