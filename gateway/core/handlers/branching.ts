import type { GatewayConnection } from '../gatewayConnection.js';
import type { LiveSession } from '../liveSessions.js';
import type { SessionLifecycle } from '../sessionLifecycle.js';
import type { SessionStore, StoredMessage, StoredRow } from '../sessionStore.js';
import { type SessionViews, visibleHistory } from '../sessionViews.js';
import { ErrorCode, GatewayError } from '../wireErrors.js';
import { DEFAULT_COLS, isDirectory, lineageTitle } from './sessionCreate.js';
import { type HandlerContext, type HandlerTable, int, str } from './handlerTypes.js';

const nothingToBranch = () => new GatewayError(ErrorCode.NOTHING_TO_BRANCH, 'nothing to branch \u2014 send a message first');

interface ChildSpec {
  readonly title: string;
  readonly parent: string;
  readonly messages: readonly StoredMessage[];
  readonly model: string;
  readonly cwd: string;
  readonly workspace: string | null;
  readonly source: string;
  readonly cols: number;
  readonly profile: string | null;
}

export interface BranchingDeps {
  readonly store: SessionStore;
  readonly sessions: SessionLifecycle;
  readonly views: SessionViews;
  /** The cwd of a stored parent without a workspace. */
  readonly dataDir: string;
}

export function branchingHandlers({ store, sessions, views, dataDir }: BranchingDeps): HandlerTable {
  /** Persists the child row at once, opens its live session and builds its agent synchronously. */
  const spawnChild = (spec: ChildSpec, connection: GatewayConnection, context: HandlerContext): { row: StoredRow; child: LiveSession } => {
    const key = store.newKey();
    const copies = spec.messages.map(({ row_id: _old, ...message }) => store.message(message));
    const row = store.create({ key, title: spec.title, source: spec.source, parent: spec.parent, cwd: spec.workspace, model: spec.model, messages: copies });
    const child = sessions.open(
      {
        key,
        model: spec.model,
        provider: null,
        reasoningEffort: null,
        fast: null,
        cwd: spec.cwd,
        workspace: spec.workspace,
        cols: spec.cols,
        source: spec.source,
        profile: spec.profile,
        closeOnDisconnect: false,
      },
      connection,
      'branch',
    );
    sessions.buildNow(child);
    if (child.agent === 'failed') throw new GatewayError(ErrorCode.AGENT_INIT_FAILED, child.buildError ?? 'agent init failed');
    context.afterReply(() => sessions.announce(child));
    return { row, child };
  };

  const branchLive = async (params: Record<string, unknown>, context: HandlerContext, count: number | undefined) => {
    const parent = sessions.require(params['session_id']);
    await sessions.waitForAgent(parent);
    let history = views.history(parent).filter((message) => message.role === 'user' || message.role === 'assistant');
    if (count !== undefined) history = history.slice(0, Math.max(0, count));
    if (history.length === 0) throw nothingToBranch();
    const parentTitle = store.get(parent.key)?.title ?? parent.pendingTitle ?? '';
    const title = str(params['name']) || lineageTitle(store, parentTitle);
    const spec = { title, parent: parent.key, messages: history, model: parent.model, cwd: parent.cwd, workspace: parent.workspace, source: parent.source, cols: parent.cols, profile: parent.profile };
    return { ...spawnChild(spec, context.connection, context), parentKey: parent.key };
  };

  /** The keys session.branch and session.branch_whole share; they differ only in how the copied transcript is echoed. */
  const branchResult = ({ row, child, parentKey }: Awaited<ReturnType<typeof branchLive>>) => ({
    session_id: child.id,
    stored_session_id: row.key,
    title: row.title,
    parent: parentKey,
    message_count: row.messages.length,
    info: views.fullInfo(child),
  });

  return {
    'session.branch': async (params, context) => {
      const branched = await branchLive(params, context, int(params['count']));
      return { ...branchResult(branched), messages: visibleHistory(branched.row.messages) };
    },

    'session.branch_whole': async (params, context) => {
      return { ...branchResult(await branchLive(params, context, undefined)), messages_omitted: true };
    },

    'session.branch_stored': (params, context) => {
      const parent = store.get(str(params['parent_session_id']) ?? '');
      if (!parent) throw new GatewayError(ErrorCode.STORED_SESSION_NOT_FOUND, 'session not found');
      if (parent.messages.length === 0) throw nothingToBranch();
      const sentCwd = str(params['cwd']);
      const explicit = sentCwd !== undefined && isDirectory(sentCwd);
      const spec = {
        title: lineageTitle(store, parent.title),
        parent: parent.key,
        messages: parent.messages,
        model: parent.model,
        cwd: explicit ? sentCwd : (parent.cwd ?? dataDir),
        workspace: explicit ? sentCwd : parent.cwd,
        source: str(params['source']) ?? parent.source,
        cols: int(params['cols']) ?? DEFAULT_COLS,
        profile: str(params['profile']) ?? null,
      };
      const { row, child } = spawnChild(spec, context.connection, context);
      return { session_id: child.id, stored_session_id: row.key, message_count: row.messages.length, messages_omitted: true, info: views.fullInfo(child) };
    },
  };
}
