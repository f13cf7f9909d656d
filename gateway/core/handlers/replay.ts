import type { ReplayEpoch } from '../replayEpoch.js';
import type { ReplayRings } from '../replayRings.js';
import { type HandlerTable, int, str } from './handlerTypes.js';

export interface ReplayDeps {
  readonly replay: ReplayRings;
  readonly epoch: ReplayEpoch;
}

export function replayHandlers({ replay, epoch }: ReplayDeps): HandlerTable {
  return {
    // Works for any runtime id, live or not: a reaped or closed session's ring stays readable for the epoch.
    'session.events.since': (params) => {
      const slice = replay.since(str(params['session_id']) ?? '', int(params['last_seen']) ?? 0);
      return { ...slice, epoch: epoch.value, open_requests: [] };
    },

    'session.events.stats': () => replay.stats(),
  };
}
