import { infoOf } from '../sessionViews.js';
import { ErrorCode, GatewayError } from '../wireErrors.js';
import { isDirectory } from './sessionCreate.js';
import { bool, type GatewayServices, type HandlerTable, str } from './handlerTypes.js';

const MAX_TITLE_LENGTH = 100;

function checkedCwd(raw: unknown): string {
  const cwd = str(raw) ?? '';
  if (cwd === '') throw new GatewayError(ErrorCode.CWD_REQUIRED, 'cwd required');
  return cwd;
}

function requireDirectory(cwd: string): void {
  if (!isDirectory(cwd)) throw new GatewayError(ErrorCode.CWD_INVALID, `working directory does not exist: ${cwd}`);
}

export function rowMutationHandlers({ rt, sessions }: GatewayServices): HandlerTable {
  return {
    'session.title': (params, context) => {
      const session = sessions.require(params['session_id']);
      const requested = str(params['title']);
      if (requested === undefined) {
        const row = rt.store.get(session.key);
        return { title: row?.title ?? session.pendingTitle ?? '', session_key: session.key };
      }
      const title = requested.trim();
      if (title === '') throw new GatewayError(ErrorCode.TITLE_REQUIRED, 'title required');
      if (title.length > MAX_TITLE_LENGTH || /[\u0000-\u001f\u007f]/.test(title)) {
        throw new GatewayError(ErrorCode.TITLE_INVALID, `invalid title: at most ${MAX_TITLE_LENGTH} characters, no control characters`);
      }
      // Newer handlers create the row to hold the title instead of queueing it for the first turn.
      sessions.ensureRow(session).title = title;
      context.afterReply(() => rt.events.emit(session, 'session.info', infoOf(rt, session)));
      return { title, session_key: session.key };
    },

    'session.set_hidden': (params) => {
      const target = str(params['session_id']) ?? '';
      const hidden = bool(params['hidden']) ?? true;
      const live = rt.live.get(target) ?? rt.live.byKey(target);
      const row = live ? rt.store.get(live.key) : (rt.store.get(target) ?? rt.store.findByTitle(target));
      if (row) row.hidden = hidden;
      else if (live) live.pendingHidden = hidden;
      else throw new GatewayError(ErrorCode.STORED_SESSION_NOT_FOUND, 'session not found');
      return { hidden, session_key: row?.key ?? live?.key ?? target };
    },

    'session.workspace.move': (params, context) => {
      const key = str(params['session_key']) ?? '';
      if (key === '') throw new GatewayError(ErrorCode.STORED_SESSION_NOT_FOUND, 'session_key required');
      const cwd = checkedCwd(params['cwd']);
      const row = rt.store.get(key);
      const live = rt.live.byKey(key);
      if (!row && !live) throw new GatewayError(ErrorCode.STORED_SESSION_NOT_FOUND, 'session not found');
      requireDirectory(cwd);
      if (row) row.cwd = cwd;
      if (live) {
        live.cwd = cwd;
        live.workspace = cwd;
        context.afterReply(() => rt.events.emit(live, 'session.info', infoOf(rt, live)));
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
      const row = rt.store.get(session.key);
      if (row) row.cwd = cwd;
      context.afterReply(() => rt.events.emit(session, 'session.info', infoOf(rt, session)));
      return infoOf(rt, session);
    },
  };
}
