import { previewOf } from '../sessionStore.js';
import { historyOf, statusOf, titleOf } from '../sessionViews.js';
import { bool, type GatewayServices, type HandlerTable, int, str } from './handlerTypes.js';

export function listingHandlers({ rt }: GatewayServices): HandlerTable {
  return {
    'session.list': (params) => {
      const title = str(params['title']);
      let rows = rt.store.listable(bool(params['include_hidden']) ?? false);
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
      const row = rt.store.listable(false)[0];
      return row ? { session_id: row.key, title: row.title, started_at: row.startedAt, source: row.source } : { session_id: null };
    },

    // Hidden live sessions are left out unless they are the caller's current one.
    'session.active_list': (params) => {
      const current = str(params['current_session_id']);
      const sessions = rt.live.all().filter((session) => {
        const hidden = rt.store.get(session.key)?.hidden ?? session.pendingHidden;
        return !hidden || session.id === current;
      });
      return {
        sessions: sessions.map((session) => {
          const history = historyOf(rt, session);
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
            title: titleOf(rt, session),
          };
        }),
      };
    },
  };
}
