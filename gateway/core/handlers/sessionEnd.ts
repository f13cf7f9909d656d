import type { LiveSessions } from '../liveSessions.js';
import type { SessionLifecycle } from '../sessionLifecycle.js';
import type { SessionStore } from '../sessionStore.js';
import { ErrorCode, GatewayError } from '../wireErrors.js';
import { type HandlerTable, str } from './handlerTypes.js';

export interface SessionEndDeps {
  readonly store: SessionStore;
  readonly live: LiveSessions;
  readonly sessions: SessionLifecycle;
}

export function sessionEndHandlers({ store, live, sessions }: SessionEndDeps): HandlerTable {
  return {
    // An unknown (or already closed) runtime id answers {closed: false}, as the contract comment says,
    // rather than the newest handler's session-not-found error: closing is idempotent for clients.
    // The answer waits for the session_cleanup handlers (bounded by their time limit), as Mellea's cleanup blocks.
    'session.close': async (params) => {
      const session = live.get(str(params['session_id']) ?? '');
      if (!session || !sessions.close(session, { kind: 'client_close' })) return { closed: false };
      await session.cleanup;
      return { closed: true };
    },

    'session.delete': (params) => {
      const key = str(params['session_id']) ?? '';
      if (key === '') throw new GatewayError(ErrorCode.SESSION_ID_REQUIRED, 'session_id required');
      if (live.byKey(key)) throw new GatewayError(ErrorCode.DELETE_ACTIVE, 'cannot delete an active session');
      if (!store.delete(key)) throw new GatewayError(ErrorCode.STORED_SESSION_NOT_FOUND, 'session not found');
      return { deleted: key };
    },
  };
}
