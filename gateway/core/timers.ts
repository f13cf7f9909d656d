/** A pending task started through {@link Timers}. */
export interface TimerHandle {
  readonly id: number;
}

/**
 * Every timer the core starts, so that close() and restart() can stop them all at once. A zero delay runs on the
 * next turn of the event loop (setImmediate) rather than after setTimeout's one-millisecond floor.
 */
export class Timers {
  private readonly pending = new Map<number, () => void>();
  private nextId = 1;

  after(ms: number, task: () => void): TimerHandle {
    const id = this.nextId++;
    const run = () => {
      this.pending.delete(id);
      task();
    };
    if (ms <= 0) {
      const immediate = setImmediate(run);
      this.pending.set(id, () => clearImmediate(immediate));
    } else {
      const timeout = setTimeout(run, ms);
      this.pending.set(id, () => clearTimeout(timeout));
    }
    return { id };
  }

  cancel(handle: TimerHandle | undefined): void {
    if (handle === undefined) return;
    this.pending.get(handle.id)?.();
    this.pending.delete(handle.id);
  }

  cancelAll(): void {
    for (const clear of this.pending.values()) clear();
    this.pending.clear();
  }
}
