import type { FakeAgent } from '../fakeAgent.js';
import { type LiveSession, mintInputId } from '../liveSessions.js';
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

type Disposition = 'starting' | 'queued' | 'steered' | 'redirected';

/** `submission_ref` as SHARED_SESSION_WIRE allows it (1–64 printable ASCII characters); anything else is ignored. */
function submissionRef(raw: unknown): string | undefined {
  return typeof raw === 'string' && /^[\x20-\x7e]{1,64}$/.test(raw) ? raw : undefined;
}

/** A reply's `submission`: fitted away unless the served document declares it. */
function submission(inputId: string, params: Record<string, unknown>, disposition: Disposition): Record<string, unknown> {
  const ref = submissionRef(params['submission_ref']);
  return { input_id: inputId, ...(ref !== undefined ? { ref } : {}), disposition };
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
      const prompt = { text, displayKind, inputId: mintInputId(session) };
      const running = session.turn;
      if (running) {
        if (params['interrupted'] === true) {
          agent.interrupt(session, running, false);
          context.afterReply(agent.start(session, prompt));
          return { status: 'redirected', submission: submission(prompt.inputId, params, 'redirected') };
        }
        if (params['queued'] === false) {
          running.corrections.push(text);
          running.inputIds.push(prompt.inputId);
          return { status: 'steered', submission: submission(prompt.inputId, params, 'steered') };
        }
        session.queue.push(prompt);
        return { status: 'queued', submission: submission(prompt.inputId, params, 'queued') };
      }
      context.afterReply(agent.start(session, prompt));
      return { status: 'streaming', submission: submission(prompt.inputId, params, 'starting') };
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
      const inputId = mintInputId(session);
      session.turn.corrections.push(text);
      session.turn.inputIds.push(inputId);
      // A successful steer keeps the legacy "queued" status; its disposition tells it from next-turn queueing.
      return { status: 'queued', text, submission: submission(inputId, params, 'steered') };
    },

    'session.redirect': (params, context) => {
      const session = sessions.require(params['session_id']);
      const text = str(params['text']) ?? '';
      if (session.agent === 'building' || session.agent === 'none') {
        if (session.agent === 'none') sessions.scheduleBuild(session);
        sessions.ensureRow(session);
        const queued = { text, displayKind: undefined, inputId: mintInputId(session) };
        session.queue.push(queued);
        return { status: 'queued', text, submission: submission(queued.inputId, params, 'queued') };
      }
      if (!session.turn) return { status: 'rejected', text };
      agent.interrupt(session, session.turn, false);
      const prompt = { text, displayKind: undefined, inputId: mintInputId(session) };
      context.afterReply(agent.start(session, prompt));
      return { status: 'redirected', text, submission: submission(prompt.inputId, params, 'redirected') };
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
