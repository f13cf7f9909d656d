import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { SessionHooks } from '../../hooks/sessionHooks.js';
import type { Clock } from '../clock.js';
import { DEFAULT_MODEL } from '../fakeAgent.js';
import type { LiveSessions } from '../liveSessions.js';
import type { SessionLifecycle } from '../sessionLifecycle.js';
import type { SessionStore, StoredMessage } from '../sessionStore.js';
import { type SessionViews, visibleHistory } from '../sessionViews.js';
import { bool, type HandlerTable, int, str } from './handlerTypes.js';

export const DEFAULT_COLS = 80;

export function isDirectory(path: string): boolean {
  if (!isAbsolute(path)) return false;
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** `SeedMessage` → stored row: `content` wins over the legacy `text`; only `display_kind: "hidden"` is kept. */
export function coerceSeed(store: SessionStore, clock: Clock, raw: unknown): StoredMessage {
  const seed = raw as Record<string, unknown>;
  const text = str(seed['content']) ?? str(seed['text']) ?? '';
  const hidden = seed['display_kind'] === 'hidden';
  return store.message({ role: String(seed['role']), text, timestamp: clock.nowSeconds(), ...(hidden ? { display_kind: 'hidden' } : {}) });
}

/** "X (branch)", then "X (branch 2)", … : the next title of a lineage that is not taken yet. */
export function lineageTitle(store: SessionStore, parentTitle: string): string {
  const base = parentTitle || 'Untitled';
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? `${base} (branch)` : `${base} (branch ${n})`;
    if (!store.findByTitle(candidate)) return candidate;
  }
}

/** The create params a backend would take as model options (`session_pre_init.model_options`); null when none. */
function modelOptionsOf(params: Record<string, unknown>): Record<string, unknown> | null {
  const options: Record<string, unknown> = {};
  if (str(params['reasoning_effort']) !== undefined) options['reasoning_effort'] = params['reasoning_effort'];
  if (bool(params['fast']) !== undefined) options['fast'] = params['fast'];
  return Object.keys(options).length > 0 ? options : null;
}

export interface SessionCreateDeps {
  readonly store: SessionStore;
  readonly live: LiveSessions;
  readonly sessions: SessionLifecycle;
  readonly hooks: SessionHooks;
  readonly views: SessionViews;
  readonly clock: Clock;
  /** The cwd of a session whose client sent none (or one that is no directory). */
  readonly dataDir: string;
}

export function sessionCreateHandlers({ store, live, sessions, hooks, views, clock, dataDir }: SessionCreateDeps): HandlerTable {
  return {
    'session.create': async (params, context) => {
      // session_pre_init names the session and may change the model before anything is resolved.
      const id = live.reserveId();
      const init = await hooks.preInit(id, {
        backendName: str(params['provider']) ?? 'reference',
        modelId: str(params['model']) || DEFAULT_MODEL,
        modelOptions: modelOptionsOf(params),
      });
      const model = init.modelId;
      const options = init.modelOptions ?? {};
      const sentCwd = str(params['cwd']) || undefined;
      const explicit = sentCwd !== undefined && isDirectory(sentCwd);
      const profile = str(params['profile']) ?? null;
      // #52589: a cwd the client did not pick deliberately yields to a named profile's own cwd.
      const profileWins = params['cwd_explicit'] === false && profile !== null && profile !== '';
      const cwd = !profileWins && explicit ? sentCwd : dataDir;
      const seeds = Array.isArray(params['messages']) ? params['messages'].map((raw) => coerceSeed(store, clock, raw)) : [];
      const parent = str(params['parent_session_id']) || null;
      const key = store.newKey();
      const title = str(params['title']) ?? null;
      const hidden = bool(params['hidden']) ?? false;
      const workspace = explicit && !profileWins ? (sentCwd ?? null) : null;
      const seededChild = parent !== null && seeds.length > 0;
      if (seededChild) {
        const parentTitle = store.get(parent)?.title ?? '';
        store.create({ key, title: title ?? lineageTitle(store, parentTitle), hidden, source: str(params['source']) ?? '', parent, cwd: workspace, model, messages: seeds });
      }
      const session = sessions.open(
        {
          key,
          model,
          provider: str(params['provider']) ?? null,
          reasoningEffort: str(options['reasoning_effort']) ?? null,
          fast: bool(options['fast']) ?? null,
          cwd,
          workspace,
          cols: int(params['cols']) ?? DEFAULT_COLS,
          source: str(params['source']) ?? '',
          profile,
          closeOnDisconnect: bool(params['close_on_disconnect']) ?? false,
          pendingTitle: seededChild ? null : title,
          pendingHidden: hidden,
          pendingMessages: seededChild ? [] : seeds,
          modelOptions: init.modelOptions,
        },
        context.connection,
        'create',
        id,
      );
      sessions.openedForGoneConnection(session, context.connection);
      context.afterReply(() => sessions.buildAfterReply(session));
      const history = views.history(session);
      return {
        session_id: session.id,
        stored_session_id: key,
        message_count: history.length,
        messages: visibleHistory(history),
        info: views.lazyInfo(session),
      };
    },
  };
}
