import type { LiveSessions } from '../liveSessions.js';
import type { SessionEvents } from '../sessionEvents.js';
import type { SessionLifecycle } from '../sessionLifecycle.js';
import type { SessionStore } from '../sessionStore.js';
import type { SessionViews } from '../sessionViews.js';
import { ErrorCode, GatewayError } from '../wireErrors.js';
import { isDirectory } from './sessionCreate.js';
import { bool, type HandlerTable, str } from './handlerTypes.js';

const MAX_TITLE_LENGTH = 100;

function checkedCwd(raw: unknown): string {
  const cwd = str(raw) ?? '';
  if (cwd === '') throw new GatewayError(ErrorCode.CWD_REQUIRED, 'cwd required');
  return cwd;
}

function requireDirectory(cwd: string): void {
  if (!isDirectory(cwd)) throw new GatewayError(ErrorCode.CWD_INVALID, `working directory does not exist: ${cwd}`);
}

export interface RowMutationDeps {
  readonly store: SessionStore;
  readonly live: LiveSessions;
  readonly sessions: SessionLifecycle;
  readonly events: SessionEvents;
  readonly views: SessionViews;
}

export function rowMutationHandlers({ store, live, sessions, events, views }: RowMutationDeps): HandlerTable {
  return {
    'session.title': (params, context) => {
      const session = sessions.require(params['session_id']);
      const requested = str(params['title']);
      if (requested === undefined) {
        const row = store.get(session.key);
        return { title: row?.title ?? session.pendingTitle ?? '', session_key: session.key };
      }
      const title = requested.trim();
      if (title === '') throw new GatewayError(ErrorCode.TITLE_REQUIRED, 'title required');
      if (title.length > MAX_TITLE_LENGTH || /[\u0000-\u001f\u007f]/.test(title)) {
        throw new GatewayError(ErrorCode.TITLE_INVALID, `invalid title: at most ${MAX_TITLE_LENGTH} characters, no control characters`);
      }
      // Newer handlers create the row to hold the title instead of queueing it for the first turn.
      sessions.ensureRow(session).title = title;
      context.afterReply(() => events.emit(session, 'session.info', views.infoOf(session)));
      return { title, session_key: session.key };
    },

    'session.set_hidden': (params) => {
      const target = str(params['session_id']) ?? '';
      const hidden = bool(params['hidden']) ?? true;
      const session = live.get(target) ?? live.byKey(target);
      const row = session ? store.get(session.key) : (store.get(target) ?? store.findByTitle(target));
      if (row) row.hidden = hidden;
      else if (session) session.pendingHidden = hidden;
      else throw new GatewayError(ErrorCode.STORED_SESSION_NOT_FOUND, 'session not found');
      return { hidden, session_key: row?.key ?? session?.key ?? target };
    },

    'session.workspace.move': (params, context) => {
      const key = str(params['session_key']) ?? '';
      if (key === '') throw new GatewayError(ErrorCode.STORED_SESSION_NOT_FOUND, 'session_key required');
      const cwd = checkedCwd(params['cwd']);
      const row = store.get(key);
      const session = live.byKey(key);
      if (!row && !session) throw new GatewayError(ErrorCode.STORED_SESSION_NOT_FOUND, 'session not found');
      requireDirectory(cwd);
      if (row) row.cwd = cwd;
      if (session) {
        session.cwd = cwd;
        session.workspace = cwd;
        context.afterReply(() => events.emit(session, 'session.info', views.infoOf(session)));
      }
      return { cwd, branch: null, git_repo_root: null };
    },

    'session.cwd.set': (params, context) => {
      const session = sessions.require(params['session_id']);
      const cwd = checkedCwd(params['cwd']);
      if (session.turn) throw new GatewayError(ErrorCode.SESSION_BUSY, 'session busy');
      requireDirectory(cwd);
      session.cwd = cwd;
      session.workspace = cwd;
      const row = store.get(session.key);
      if (row) row.cwd = cwd;
      context.afterReply(() => events.emit(session, 'session.info', views.infoOf(session)));
      return views.infoOf(session);
    },
  };
}
