/**
 * How long the tap is told about queued frames before pending reads get their turn again: a frame that arrives
 * meanwhile waits at most this long to be relayed. A quarter of a millisecond keeps that wait short; with more
 * than CATCH_UP_BACKLOG calls waiting (a flood the tap falls behind on), slices of CATCH_UP_SLICE_MS give it a
 * larger share of the process, so that the queue and the frames it holds stop growing.
 */
export const TAP_SLICE_MS = 0.25;
export const CATCH_UP_SLICE_MS = 2;
export const CATCH_UP_BACKLOG = 5_000;

export interface DeferredTap {
  /** Queues a call to the tap; it runs in a later slice, in order. */
  later(call: () => void): void;
  /** Runs every queued call now (the relay is closing). */
  drain(): void;
  /** Calls queued and not yet run. */
  readonly backlog: number;
}

/** The clock and the scheduler a tap's slices run on: the process's own, unless a test gives others. */
export interface TapTimers {
  readonly now: () => number;
  readonly schedule: (slice: () => void) => void;
}

const PROCESS_TIMERS: TapTimers = { now: () => performance.now(), schedule: (slice) => void setImmediate(slice) };

/**
 * Tells the tap what happened once the frames of this turn are on their way: calls are queued in order and run
 * after pending I/O (setImmediate), in short slices, so that judging neither delays a write nor holds the next reads
 * for long. A throwing tap changes nothing.
 */
export function deferredTap(timers: TapTimers = PROCESS_TIMERS): DeferredTap {
  let queue: Array<() => void> = [];
  let next = 0;
  let scheduled = false;
  const run = (until: number): void => {
    while (next < queue.length && timers.now() < until) {
      try {
        (queue[next++] as () => void)();
      } catch {
        // The observer's failure never reaches the traffic.
      }
    }
    if (next < queue.length) return;
    queue = [];
    next = 0;
  };
  const slice = (): void => {
    scheduled = false;
    run(timers.now() + (queue.length - next > CATCH_UP_BACKLOG ? CATCH_UP_SLICE_MS : TAP_SLICE_MS));
    if (next < queue.length) schedule();
  };
  const schedule = (): void => {
    if (scheduled) return;
    scheduled = true;
    timers.schedule(slice);
  };
  return {
    later(call) {
      queue.push(call);
      schedule();
    },
    drain: () => run(Number.POSITIVE_INFINITY),
    get backlog() {
      return queue.length - next;
    },
  };
}
