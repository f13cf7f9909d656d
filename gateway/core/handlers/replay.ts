import type { ReplayEpoch } from '../replayEpoch.js';
import type { ReplayRings } from '../replayRings.js';
import type { ServerRequests } from '../serverRequests.js';
import { type HandlerTable, int, str } from './handlerTypes.js';

export interface ReplayDeps {
  readonly replay: ReplayRings;
  readonly epoch: ReplayEpoch;
  readonly serverRequests: ServerRequests;
}

export function replayHandlers({ replay, epoch, serverRequests }: ReplayDeps): HandlerTable {
  return {
    // Works for any runtime id, live or not: a reaped or closed session's ring stays readable for the epoch.
    'session.events.since': (params) => {
      const sessionId = str(params['session_id']) ?? '';
      const { events, latest_seq, truncated, count } = replay.since(sessionId, int(params['last_seen']) ?? 0);
      return { events, latest_seq, truncated, count, epoch: epoch.value, open_requests: serverRequests.openFor(sessionId) };
    },

    'session.events.stats': () => replay.stats(),
  };
}
