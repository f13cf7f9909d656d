import { ErrorCode, GatewayError } from '../wireErrors.js';
import { type GatewayServices, type HandlerTable, str } from './handlerTypes.js';

export function sessionEndHandlers({ rt, sessions }: GatewayServices): HandlerTable {
  return {
    // An unknown (or already closed) runtime id answers {closed: false}, as the contract comment says,
    // rather than the newest handler's session-not-found error: closing is idempotent for clients.
    'session.close': (params) => {
      const session = rt.live.get(str(params['session_id']) ?? '');
      return { closed: session ? sessions.close(session, { kind: 'client_close' }) : false };
    },

    'session.delete': (params) => {
      const key = str(params['session_id']) ?? '';
      if (key === '') throw new GatewayError(ErrorCode.SESSION_ID_REQUIRED, 'session_id required');
      if (rt.live.byKey(key)) throw new GatewayError(ErrorCode.DELETE_ACTIVE, 'cannot delete an active session');
      if (!rt.store.delete(key)) throw new GatewayError(ErrorCode.STORED_SESSION_NOT_FOUND, 'session not found');
      return { deleted: key };
    },
  };
}
