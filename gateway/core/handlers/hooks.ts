import { isHookName } from '../../hooks/hookTypes.js';
import type { SessionHooks } from '../../hooks/sessionHooks.js';
import type { SessionLifecycle } from '../sessionLifecycle.js';
import type { SessionStore } from '../sessionStore.js';
import { ErrorCode, GatewayError, sessionNotFound } from '../wireErrors.js';
import type { HandlerTable } from './handlerTypes.js';

export interface HookHandlerDeps {
  readonly store: SessionStore;
  readonly sessions: SessionLifecycle;
  readonly hooks: SessionHooks;
}

/** The session-hooks extension's methods (dispatched only when its document is loaded). */
export function hookHandlers({ store, sessions, hooks }: HookHandlerDeps): HandlerTable {
  return {
    'hooks.subscribe': (params, context) => {
      const requested = params['hooks'];
      const names = Array.isArray(requested) ? requested.filter(isHookName) : null;
      return { subscribed: hooks.subscribe(context.connection, names) };
    },

    // session_reset sees the context as it was; only then is it emptied and the count restarted.
    'session.reset': async (params) => {
      const session = sessions.require(params['session_id']);
      if (session.turn) throw new GatewayError(ErrorCode.SESSION_BUSY, 'session busy');
      await hooks.reset(session);
      if (session.closed) throw sessionNotFound();
      const row = store.get(session.key);
      if (row) row.messages = [];
      session.pendingMessages = [];
      session.interactionCount = 0;
      return { reset: true };
    },
  };
}
