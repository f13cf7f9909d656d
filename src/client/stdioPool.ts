import type { WireEvent } from '../../core/index.js';
import type { StdioChild } from './stdioChild.js';

/** A child that served a connection and waits for the next one of the same command line. */
export interface ParkedChild {
  child: StdioChild;
  /** The dialect's first event as the child sent it when it started (it is not sent again). */
  ready: WireEvent | undefined;
}

interface Parked extends ParkedChild {
  idle: NodeJS.Timeout;
  graceMs: number;
}

/** Children kept at once, whatever their command lines: more lanes than this start processes of their own. */
const MAX_PARKED = 8;
/** A parked child nobody takes within this is closed. */
const PARKED_IDLE_MS = 10_000;

/**
 * Spawned targets kept between connections, by command line, working folder and environment: starting a
 * process per connection costs a target's whole start-up each time (for an interpreter that imports a large
 * program, seconds). A connection hands its child back only when nothing of it can reach the next one (see
 * RpcProtocol.close); a child that sends anything but an event while it waits is not handed out again.
 */
export class StdioPool {
  private readonly parked = new Map<string, Parked[]>();

  /** A running child for `key`, taken out of the pool; undefined when none waits. */
  take(key: string): ParkedChild | undefined {
    const waiting = this.parked.get(key);
    while (waiting && waiting.length > 0) {
      const entry = waiting.pop() as Parked;
      clearTimeout(entry.idle);
      if (entry.child.isRunning && entry.child.disturbed === undefined) return { child: entry.child, ready: entry.ready };
      void entry.child.close(entry.graceMs);
    }
    return undefined;
  }

  /**
   * Keeps `child` for the next connection of `key`; false when the pool is full (the caller closes it). The bound is
   * on all keys together: connections whose environments differ (a credential per connection) never share a child,
   * and must not pile up children nobody takes.
   */
  park(key: string, parked: ParkedChild, graceMs: number): boolean {
    const waiting = this.parked.get(key) ?? [];
    if (this.size >= MAX_PARKED || !parked.child.isRunning) return false;
    stopOnExit(this);
    const entry: Parked = { ...parked, graceMs, idle: setTimeout(() => this.retire(key, entry), PARKED_IDLE_MS) };
    entry.idle.unref();
    waiting.push(entry);
    this.parked.set(key, waiting);
    void parked.child.ended.then(() => this.remove(key, entry));
    return true;
  }

  /** Children waiting now, for every key. */
  get size(): number {
    let size = 0;
    for (const waiting of this.parked.values()) size += waiting.length;
    return size;
  }

  /** Closes every parked child (end of stdin, then the grace period) and waits for them to end. */
  async closeAll(): Promise<void> {
    const all = [...this.parked.values()].flat();
    this.parked.clear();
    poolsToStop.delete(this);
    await Promise.all(
      all.map((entry) => {
        clearTimeout(entry.idle);
        return entry.child.close(entry.graceMs);
      }),
    );
  }

  private retire(key: string, entry: Parked): void {
    if (this.remove(key, entry)) void entry.child.close(entry.graceMs);
  }

  private remove(key: string, entry: Parked): boolean {
    const waiting = this.parked.get(key);
    const index = waiting?.indexOf(entry) ?? -1;
    if (!waiting || index < 0) return false;
    clearTimeout(entry.idle);
    waiting.splice(index, 1);
    if (waiting.length === 0) this.parked.delete(key);
    return true;
  }

  /** Asks every parked child to stop, without waiting: this process is exiting. */
  stopAll(): void {
    for (const entry of [...this.parked.values()].flat()) entry.child.stop();
  }
}

const poolsToStop = new Set<StdioPool>();
let exitHooked = false;

/** Parked children are unreferenced, so this process may exit while they wait: they are stopped with it. */
function stopOnExit(pool: StdioPool): void {
  if (!exitHooked) process.once('exit', () => poolsToStop.forEach((each) => each.stopAll()));
  exitHooked = true;
  poolsToStop.add(pool);
}

/** The pool this process's stdio connections share. */
export const stdioPool = new StdioPool();
