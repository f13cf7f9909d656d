/** An opaque timer handle: whatever the clock's setTimeout returned. */
export type TimerHandle = unknown;

/** Time and timers, injectable so that protocol tests drive time by hand instead of waiting. */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
