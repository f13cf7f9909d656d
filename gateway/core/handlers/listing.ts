import type { LiveSessions } from '../liveSessions.js';
import { previewOf, type SessionStore } from '../sessionStore.js';
import { type SessionViews, statusOf } from '../sessionViews.js';
import { bool, type HandlerTable, int, str } from './handlerTypes.js';

export interface ListingDeps {
  readonly store: SessionStore;
  readonly live: LiveSessions;
  readonly views: SessionViews;
}

export function listingHandlers({ store, live, views }: ListingDeps): HandlerTable {
  return {
    'session.list': (params) => {
      const title = str(params['title']);
      let rows = store.listable(bool(params['include_hidden']) ?? false);
      if (title !== undefined) rows = rows.filter((row) => row.title === title);
      const limit = int(params['limit']);
      if (limit !== undefined && limit >= 0 && title === undefined) rows = rows.slice(0, limit);
      return {
        sessions: rows.map((row) => ({
          id: row.key,
          title: row.title,
          preview: previewOf(row.messages),
          started_at: row.startedAt,
          message_count: row.messages.length,
          source: row.source,
        })),
      };
    },

    'session.most_recent': () => {
      const row = store.listable(false)[0];
      return row ? { session_id: row.key, title: row.title, started_at: row.startedAt, source: row.source } : { session_id: null };
    },

    // Hidden live sessions are left out unless they are the caller's current one.
    'session.active_list': (params) => {
      const current = str(params['current_session_id']);
      const sessions = live.all().filter((session) => {
        const hidden = store.get(session.key)?.hidden ?? session.pendingHidden;
        return !hidden || session.id === current;
      });
      return {
        sessions: sessions.map((session) => {
          const history = views.history(session);
          return {
            current: session.id === current,
            id: session.id,
            last_active: session.lastActive,
            message_count: history.length,
            model: session.model,
            preview: previewOf(history),
            session_key: session.key,
            started_at: session.startedAt,
            status: statusOf(session),
            title: views.title(session),
          };
        }),
      };
    },
  };
}
