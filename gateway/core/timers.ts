/** Every timer the core starts, so that close() and restart() can stop them all at once. */
export class Timers {
  private readonly pending = new Set<NodeJS.Timeout>();

  after(ms: number, task: () => void): NodeJS.Timeout {
    const handle = setTimeout(() => {
      this.pending.delete(handle);
      task();
    }, ms);
    this.pending.add(handle);
    return handle;
  }

  cancel(handle: NodeJS.Timeout | undefined): void {
    if (handle === undefined) return;
    clearTimeout(handle);
    this.pending.delete(handle);
  }

  cancelAll(): void {
    for (const handle of this.pending) clearTimeout(handle);
    this.pending.clear();
  }
}
