import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../clock.js';
import type { SessionLifecycle } from '../sessionLifecycle.js';
import { CONTEXT_MAX_TOKENS, type SessionViews, statusOf, tokensOf, usageOf, visibleHistory } from '../sessionViews.js';
import { ErrorCode, GatewayError, sessionNotFound } from '../wireErrors.js';
import { type HandlerTable, int, str } from './handlerTypes.js';

export interface SessionReadoutDeps {
  readonly sessions: SessionLifecycle;
  readonly views: SessionViews;
  readonly clock: Clock;
  /** `session.save` writes under `<dataDir>/sessions/saved/`. */
  readonly dataDir: string;
}

export function sessionReadoutHandlers({ sessions, views, clock, dataDir }: SessionReadoutDeps): HandlerTable {
  return {
    'session.history': (params) => {
      const history = views.history(sessions.require(params['session_id']));
      return { count: history.length, messages: visibleHistory(history) };
    },

    'session.usage': (params) => {
      const session = sessions.require(params['session_id']);
      return usageOf(views.history(session), session.model);
    },

    'session.context_breakdown': (params) => {
      const session = sessions.require(params['session_id']);
      const ready = session.agent === 'ready';
      const tokens = views.history(session).reduce((sum, message) => sum + tokensOf(message.text), 0);
      const categories = ready ? [{ color: '#60a5fa', id: 'messages', label: 'Messages', tokens }] : [];
      const used = ready ? tokens : 0;
      return {
        categories,
        context_max: CONTEXT_MAX_TOKENS,
        context_percent: Math.floor((used * 100) / CONTEXT_MAX_TOKENS),
        context_used: used,
        estimated_total: used,
        context_estimated: true,
        context_source: 'estimate',
        model: session.model,
        context_files: [],
      };
    },

    'session.status': (params) => {
      const session = sessions.require(params['session_id']);
      const lines = [
        `Session: ${session.key} (runtime ${session.id})`,
        `Title: ${views.title(session) || '(untitled)'}`,
        `Model: ${session.model}`,
        `Messages: ${views.history(session).length}`,
        `Status: ${statusOf(session)}`,
        `Working directory: ${session.cwd}`,
      ];
      return { output: lines.join('\n') };
    },

    // The fake agent has nothing to summarise: compression is a no-op that reports the unchanged transcript.
    'session.compress': async (params) => {
      const session = sessions.require(params['session_id']);
      await sessions.waitForAgent(session);
      if (session.closed) throw sessionNotFound();
      if (session.turn) throw new GatewayError(ErrorCode.SESSION_BUSY, 'session busy');
      const history = views.history(session);
      const tokens = history.reduce((sum, message) => sum + tokensOf(message.text), 0);
      const focus = str(params['focus_topic']);
      return {
        status: 'compressed',
        removed: 0,
        before_messages: history.length,
        after_messages: history.length,
        before_tokens: tokens,
        after_tokens: tokens,
        summary: { noop: true, aborted: false, headline: 'Nothing to compress', token_line: `${tokens} tokens`, note: focus ? `focus: ${focus}` : null },
        usage: usageOf(history, session.model),
        info: views.fullInfo(session),
        messages: visibleHistory(history),
        compressed: false,
      };
    },

    'session.save': (params) => {
      const session = sessions.require(params['session_id']);
      const directory = join(dataDir, 'sessions', 'saved');
      mkdirSync(directory, { recursive: true });
      const stamp = new Date(clock.now()).toISOString().replace(/[-:.]/g, '');
      const file = join(directory, `${session.key}_${stamp}.json`);
      const body = { session_id: session.key, title: views.title(session), model: session.model, saved_at: clock.nowSeconds(), messages: visibleHistory(views.history(session)) };
      writeFileSync(file, JSON.stringify(body, null, 2));
      return { file };
    },

    'terminal.resize': (params) => {
      const session = sessions.require(params['session_id']);
      const cols = int(params['cols']);
      if (cols !== undefined && cols > 0) session.cols = cols;
      return { cols: session.cols };
    },
  };
}
