import { HarnessError } from '../../core/index.js';

/** An event wait on a connection that can deliver no event (an HTTP target): it could only ever end in its timeout. */
export class NoEventsError extends HarnessError {
  constructor(what: string) {
    super('EVENT_TIMEOUT', `no ${what} can arrive: an HTTP target sends no events (one POST per request, its body the answer)`);
  }
}

/** True when `error`, or an error that caused it, is a {@link NoEventsError}: trying again cannot help. */
export function causedByNoEvents(error: unknown): boolean {
  for (let current: unknown = error; current instanceof Error; current = current.cause) if (current instanceof NoEventsError) return true;
  return false;
}
