import type { LiveSession } from './liveSessions.js';
import type { SessionStore, StoredRow } from './sessionStore.js';

/** The stored row of a live session, created on first need (first prompt, title set) from its pending state. */
export function ensureStoredRow(store: SessionStore, session: LiveSession): StoredRow {
  const existing = store.get(session.key);
  if (existing) return existing;
  const row = store.create({
    key: session.key,
    title: session.pendingTitle ?? '',
    hidden: session.pendingHidden,
    source: session.source,
    cwd: session.workspace,
    model: session.model,
    messages: session.pendingMessages,
  });
  session.pendingMessages = [];
  session.pendingTitle = null;
  return row;
}
