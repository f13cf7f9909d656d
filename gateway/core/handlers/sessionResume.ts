import type { LiveSession, LiveSessions } from '../liveSessions.js';
import type { SessionEvents } from '../sessionEvents.js';
import type { SessionLifecycle } from '../sessionLifecycle.js';
import type { SessionStore } from '../sessionStore.js';
import type { SessionViews } from '../sessionViews.js';
import type { Timers } from '../timers.js';
import { ErrorCode, GatewayError } from '../wireErrors.js';
import { DEFAULT_COLS } from './sessionCreate.js';
import { bool, type HandlerTable, int, str } from './handlerTypes.js';

export interface SessionResumeDeps {
  readonly store: SessionStore;
  readonly live: LiveSessions;
  readonly sessions: SessionLifecycle;
  readonly events: SessionEvents;
  readonly timers: Timers;
  readonly views: SessionViews;
  /** The cwd of a resumed row that has no workspace. */
  readonly dataDir: string;
  /** `sessions.max_resume_messages`: a longer transcript is refused (4130) when the reply would carry it. */
  readonly maxResumeMessages: number;
}

export function sessionResumeHandlers({ store, live, sessions, events, timers, views, dataDir, maxResumeMessages }: SessionResumeDeps): HandlerTable {
  /** defer_history: an ack now, then `session.resume_progress` loading → complete in the background. */
  const hydrate = (session: LiveSession): void => {
    events.emit(session, 'session.resume_progress', { phase: 'history', status: 'loading' });
    timers.after(0, () => {
      if (session.closed) return;
      session.hydrating = false;
      const count = store.get(session.key)?.messages.length ?? 0;
      events.emit(session, 'session.resume_progress', { phase: 'history', status: 'complete', message_count: count });
    });
  };

  return {
    'session.resume': (params, context) => {
      const target = str(params['session_id']) ?? '';
      if (target === '') throw new GatewayError(ErrorCode.SESSION_ID_REQUIRED, 'session_id required');
      const lazy = bool(params['lazy']) ?? false;
      const deferHistory = bool(params['defer_history']) ?? false;
      const omitMessages = bool(params['omit_messages']) ?? false;
      const eager = bool(params['eager_build']) ?? false;
      const row = store.get(target) ?? store.findByTitle(target);
      if (!row) {
        const unpersisted = live.byKey(target) ?? live.byPendingTitle(target);
        if (!unpersisted) throw new GatewayError(ErrorCode.STORED_SESSION_NOT_FOUND, 'session not found');
        sessions.bind(unpersisted, context.connection);
        const snapshot = views.snapshotOf(unpersisted, { omitMessages, deferHistory, resumed: unpersisted.key });
        return { ...snapshot, info: { model: unpersisted.model, lazy: true, profile_name: unpersisted.profile } };
      }
      const reusable = live.byKey(row.key);
      if (reusable) {
        // Reuse-live fast path: same runtime id, rebound to the caller, orphan reap cancelled.
        sessions.bind(reusable, context.connection);
        return views.snapshotOf(reusable, { omitMessages, deferHistory, resumed: row.key });
      }
      const carriesTranscript = !lazy && !deferHistory && !omitMessages;
      if (carriesTranscript && row.messages.length > maxResumeMessages) {
        throw new GatewayError(
          ErrorCode.RESUME_TOO_LARGE,
          `resume refused: the transcript has ${row.messages.length} messages (sessions.max_resume_messages is ${maxResumeMessages})`,
        );
      }
      const session = sessions.open(
        {
          key: row.key,
          model: row.model,
          provider: null,
          reasoningEffort: null,
          fast: null,
          cwd: row.cwd ?? dataDir,
          workspace: row.cwd,
          cols: int(params['cols']) ?? DEFAULT_COLS,
          source: str(params['source']) ?? row.source,
          profile: str(params['profile']) ?? null,
          closeOnDisconnect: bool(params['close_on_disconnect']) ?? false,
          agent: lazy ? 'none' : 'building',
        },
        context.connection,
        'resume',
      );
      if (lazy) return views.snapshotOf(session, { omitMessages, resumed: row.key });
      if (eager) {
        sessions.buildNow(session);
        if (session.agent === 'failed') throw new GatewayError(ErrorCode.AGENT_INIT_FAILED, session.buildError ?? 'agent init failed');
        context.afterReply(() => sessions.announce(session));
      } else {
        context.afterReply(() => sessions.scheduleBuild(session));
      }
      if (deferHistory) {
        session.hydrating = true;
        context.afterReply(() => hydrate(session));
      }
      return views.snapshotOf(session, { omitMessages, deferHistory, resumed: row.key });
    },

    'session.activate': (params, context) => {
      const session = sessions.require(params['session_id']);
      sessions.bind(session, context.connection);
      return views.snapshotOf(session, { omitMessages: bool(params['omit_messages']) ?? false });
    },
  };
}
