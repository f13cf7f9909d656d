import { expect, test } from './helpers/test.js';
import { CATCH_UP_BACKLOG, CATCH_UP_SLICE_MS, deferredTap, TAP_SLICE_MS, type TapTimers } from '../../src/proxy/deferredTap.js';

// The proxy tells its judge about frames in slices between reads: short ones while the judge keeps up (a frame that
// arrives waits at most a slice to be relayed), longer ones once it has fallen far behind (so the queue stops
// growing). A fake clock, on which every call to the tap takes CALL_MS, and a scheduler the test steps by hand.

/** A power of two: the fake clock adds it up without rounding. */
const CALL_MS = 1 / 64;

function fakeTimers(): TapTimers & { time: number; slices: Array<() => void>; step(): void } {
  const timers = {
    time: 0,
    slices: [] as Array<() => void>,
    now: () => timers.time,
    schedule: (slice: () => void) => void timers.slices.push(slice),
    step: () => (timers.slices.shift() as () => void)(),
  };
  return timers;
}

/** The calls one slice runs when `queued` calls wait. */
function callsInFirstSlice(queued: number): number {
  const timers = fakeTimers();
  const tap = deferredTap(timers);
  let ran = 0;
  for (let i = 0; i < queued; i++) tap.later(() => void ((timers.time += CALL_MS), ran++));
  expect(ran, 'nothing runs before its slice').toBe(0);
  expect(timers.slices, 'one slice scheduled, however many calls wait').toHaveLength(1);
  timers.step();
  expect(tap.backlog).toBe(queued - ran);
  return ran;
}

test('a slice runs the calls of a quarter millisecond while the judge keeps up, and of 2 ms once it is far behind', () => {
  expect(callsInFirstSlice(1_000)).toBe(Math.round(TAP_SLICE_MS / CALL_MS));
  expect(callsInFirstSlice(CATCH_UP_BACKLOG)).toBe(Math.round(TAP_SLICE_MS / CALL_MS));
  expect(callsInFirstSlice(CATCH_UP_BACKLOG + 1_000)).toBe(Math.round(CATCH_UP_SLICE_MS / CALL_MS));
});

test('slices go on until the queue is empty, in order; a throwing call stops nothing; drain runs what is left at once', () => {
  const timers = fakeTimers();
  const tap = deferredTap(timers);
  const order: number[] = [];
  for (let i = 0; i < 100; i++) {
    tap.later(() => {
      timers.time += CALL_MS;
      order.push(i);
      if (i % 7 === 0) throw new Error('observer failed');
    });
  }
  timers.step();
  expect(order).toHaveLength(Math.round(TAP_SLICE_MS / CALL_MS));
  expect(timers.slices, 'the next slice is scheduled').toHaveLength(1);
  while (timers.slices.length > 0) timers.step();
  expect(order).toEqual([...Array(100).keys()]);
  expect(tap.backlog).toBe(0);

  for (let i = 100; i < 150; i++) tap.later(() => void order.push(i));
  tap.drain();
  expect(order).toEqual([...Array(150).keys()]);
  expect(tap.backlog).toBe(0);
});
