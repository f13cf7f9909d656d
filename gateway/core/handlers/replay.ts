import { type GatewayServices, type HandlerTable, int, str } from './handlerTypes.js';

export function replayHandlers({ rt }: GatewayServices): HandlerTable {
  return {
    // Works for any runtime id, live or not: a reaped or closed session's ring stays readable for the epoch.
    'session.events.since': (params) => {
      const slice = rt.replay.since(str(params['session_id']) ?? '', int(params['last_seen']) ?? 0);
      return { ...slice, epoch: rt.replayEpoch, open_requests: [] };
    },

    'session.events.stats': () => rt.replay.stats(),
  };
}
