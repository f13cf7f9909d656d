import type { FakeAgent } from '../fakeAgent.js';
import type { LiveSession } from '../liveSessions.js';
import type { SessionLifecycle } from '../sessionLifecycle.js';
import type { SessionStore, StoredMessage } from '../sessionStore.js';
import type { SessionViews } from '../sessionViews.js';
import { ErrorCode, GatewayError, sessionNotFound } from '../wireErrors.js';
import { type HandlerTable, int, str } from './handlerTypes.js';

const busy = () => new GatewayError(ErrorCode.SESSION_BUSY, 'session busy');

/** The index the rewind fields of prompt.submit cut the history at, or undefined when none applies. */
function cutIndex(history: readonly StoredMessage[], params: Record<string, unknown>): number | undefined {
  const rowId = int(params['truncate_before_row_id']);
  if (rowId !== undefined) {
    const index = history.findIndex((message) => message.row_id === rowId);
    return index < 0 ? undefined : index;
  }
  const ordinal = int(params['truncate_before_user_ordinal']);
  if (ordinal !== undefined) {
    let seen = -1;
    const index = history.findIndex((message) => message.role === 'user' && ++seen === ordinal);
    return index < 0 ? undefined : index;
  }
  return undefined;
}

export interface TurnDeps {
  readonly store: SessionStore;
  readonly sessions: SessionLifecycle;
  readonly agent: FakeAgent;
  readonly views: SessionViews;
}

export function turnHandlers({ store, sessions, agent, views }: TurnDeps): HandlerTable {
  const truncate = (session: LiveSession, index: number): void => {
    const row = store.get(session.key);
    if (row) row.messages = row.messages.slice(0, index);
    else session.pendingMessages = session.pendingMessages.slice(0, index);
  };

  return {
    /**
     * A busy session never refuses a prompt: `interrupted: true` redirects (the running turn ends as interrupted
     * and this prompt runs next), `queued: false` steers the running turn, anything else queues behind it.
     */
    'prompt.submit': async (params, context) => {
      const session = sessions.require(params['session_id']);
      await sessions.waitForAgent(session);
      if (session.closed) throw sessionNotFound();
      const raw = params['text'] ?? '';
      const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
      const displayKind = params['display_kind'] === 'hidden' ? 'hidden' : undefined;
      const cut = cutIndex(views.history(session), params);
      if (cut !== undefined) {
        if (session.turn) throw busy();
        truncate(session, cut);
      }
      sessions.ensureRow(session);
      const running = session.turn;
      if (running) {
        if (params['interrupted'] === true) {
          agent.interrupt(session, running, false);
          context.afterReply(agent.start(session, text, displayKind));
          return { status: 'redirected' };
        }
        if (params['queued'] === false) {
          running.corrections.push(text);
          return { status: 'steered' };
        }
        session.queue.push({ text, displayKind });
        return { status: 'queued' };
      }
      context.afterReply(agent.start(session, text, displayKind));
      return { status: 'streaming' };
    },

    // Interrupting also drops the prompts queued behind the running turn.
    'session.interrupt': (params) => {
      const session = sessions.require(params['session_id']);
      const turn = session.turn;
      if (!turn || str(params['expected_hosted_task_id'])) return { status: 'not_interrupted', interrupted: false };
      session.queue = [];
      agent.interrupt(session, turn, false);
      return { status: 'interrupted', interrupted: true };
    },

    'session.steer': (params) => {
      const session = sessions.require(params['session_id']);
      const text = str(params['text']) ?? '';
      if (!session.turn) return { status: 'rejected', text };
      session.turn.corrections.push(text);
      return { status: 'queued', text };
    },

    'session.redirect': (params, context) => {
      const session = sessions.require(params['session_id']);
      const text = str(params['text']) ?? '';
      if (session.agent === 'building' || session.agent === 'none') {
        if (session.agent === 'none') sessions.scheduleBuild(session);
        sessions.ensureRow(session);
        session.queue.push({ text, displayKind: undefined });
        return { status: 'queued', text };
      }
      if (!session.turn) return { status: 'rejected', text };
      agent.interrupt(session, session.turn, false);
      context.afterReply(agent.start(session, text, undefined));
      return { status: 'redirected', text };
    },

    'session.undo': async (params) => {
      const session = sessions.require(params['session_id']);
      await sessions.waitForAgent(session);
      if (session.closed) throw sessionNotFound();
      if (session.turn) throw busy();
      const history = views.history(session);
      let end = history.length;
      while (end > 0 && history[end - 1]?.role !== 'user') end -= 1;
      if (end > 0) end -= 1;
      const removed = history.length - end;
      truncate(session, end);
      return { removed };
    },
  };
}
