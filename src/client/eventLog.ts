import { type WireEvent, HarnessError } from '../../core/index.js';
import { type Clock, systemClock } from './clock.js';

export interface EventFilter {
  type?: string;
  sessionId?: string;
  where?: (event: WireEvent) => boolean;
  /** Only events at or after this index of the log (default 0: an event already received matches). */
  since?: number;
}

export interface RecordedEvent {
  params: WireEvent;
  /** The whole notification frame, kept for envelope checks. */
  frame: Record<string, unknown>;
  receivedAt: number;
}

function matches(filter: EventFilter, event: WireEvent): boolean {
  return (
    (filter.type === undefined || event.type === filter.type) &&
    (filter.sessionId === undefined || event.session_id === filter.sessionId) &&
    (filter.where === undefined || filter.where(event))
  );
}

/** Events received on one connection, in arrival order, with waiters that cannot miss an event that already arrived. */
export class EventLog {
  readonly recorded: RecordedEvent[] = [];
  /** Notifications other than `event` (kept for envelope checks). */
  readonly notifications: Array<Record<string, unknown>> = [];
  /** Events dropped because the log was full. */
  dropped = 0;
  private readonly waiters = new Set<{ filter: EventFilter; resolve: (event: WireEvent) => void }>();
  private readonly listeners = new Set<(event: RecordedEvent) => void>();
  /** Frame text lengths of `recorded`, index for index, for the size budget. */
  private readonly sizes: number[] = [];
  private size = 0;

  /** Keeps the newest `max` events and, when frame sizes are given, at most `maxSize` characters of them. */
  constructor(
    private readonly max: number,
    private readonly maxSize = Number.POSITIVE_INFINITY,
    private readonly clock: Clock = systemClock,
  ) {}

  get length(): number {
    return this.recorded.length + this.dropped;
  }

  all(filter: EventFilter = {}): WireEvent[] {
    const since = Math.max(0, (filter.since ?? 0) - this.dropped);
    return this.recorded.slice(since).map((r) => r.params).filter((e) => matches(filter, e));
  }

  push(params: WireEvent, frame: Record<string, unknown>, size = 0): void {
    const entry = { params, frame, receivedAt: this.clock.now() };
    while (this.recorded.length > 0 && (this.recorded.length >= this.max || this.size + size > this.maxSize)) {
      this.recorded.shift();
      this.size -= this.sizes.shift() ?? 0;
      this.dropped++;
    }
    this.size += size;
    this.sizes.push(size);
    this.recorded.push(entry);
    for (const listener of this.listeners) listener(entry);
    for (const waiter of [...this.waiters]) {
      if (matches(waiter.filter, params)) {
        this.waiters.delete(waiter);
        waiter.resolve(params);
      }
    }
  }

  pushNotification(frame: Record<string, unknown>): void {
    if (this.notifications.length < this.max) this.notifications.push(frame);
  }

  onEvent(listener: (event: RecordedEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The first event at or after `filter.since` that matches. */
  first(filter: EventFilter): WireEvent | undefined {
    for (let i = Math.max(0, (filter.since ?? 0) - this.dropped); i < this.recorded.length; i++) {
      const params = (this.recorded[i] as RecordedEvent).params;
      if (matches(filter, params)) return params;
    }
    return undefined;
  }

  waitFor(filter: EventFilter, timeoutMs: number): Promise<WireEvent> {
    const already = this.first(filter);
    if (already) return Promise.resolve(already);
    return new Promise((resolve, reject) => {
      const waiter = {
        filter,
        resolve: (event: WireEvent) => {
          this.clock.clearTimeout(timer);
          resolve(event);
        },
      };
      const timer = this.clock.setTimeout(() => {
        this.waiters.delete(waiter);
        const what = [filter.type ?? 'any event', filter.sessionId ? `for session ${filter.sessionId}` : ''].filter(Boolean).join(' ');
        reject(new HarnessError('EVENT_TIMEOUT', `no ${what} arrived within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }
}
