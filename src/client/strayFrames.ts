import type { Clock } from './clock.js';
import { clipText } from './clipText.js';
import { MAX_STRAY_FRAMES } from './rpcClientOptions.js';

/**
 * Frames that matched no request (unknown ids, late or repeated answers, unparseable text): the first 1 000
 * kept, the rest counted, and waiters that take the next one (a junk frame's answer).
 */
export class StrayFrames {
  readonly frames: string[] = [];
  dropped = 0;
  private readonly waiters: Array<(text: string | undefined) => void> = [];

  constructor(private readonly clock: Clock) {}

  keep(text: string): void {
    if (this.frames.length < MAX_STRAY_FRAMES) this.frames.push(clipText(text));
    else this.dropped++;
  }

  /** Hands the frame to the oldest waiter; false when nobody waits. */
  offer(text: string): boolean {
    const waiter = this.waiters.shift();
    if (!waiter) return false;
    waiter(text);
    return true;
  }

  /** The next stray frame; undefined after `timeoutMs`, or at once when the connection is closed. */
  next(timeoutMs: number, isOpen: boolean): Promise<string | undefined> {
    return new Promise((resolve) => {
      const timer = this.clock.setTimeout(() => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        resolve(undefined);
      }, timeoutMs);
      const waiter = (text: string | undefined): void => {
        this.clock.clearTimeout(timer);
        resolve(text);
      };
      if (!isOpen) waiter(undefined);
      else this.waiters.push(waiter);
    });
  }

  /** The connection closed: nothing more will come. */
  closeAll(): void {
    for (const waiter of this.waiters.splice(0)) waiter(undefined);
  }
}
