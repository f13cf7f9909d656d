import type { LiveSession } from './liveSessions.js';

/** Keys that name a session in a generated value, and which of its ids each takes. */
const SESSION_KEYS: Readonly<Record<string, (session: LiveSession) => string>> = {
  session_id: (session) => session.id,
  stored_session_id: (session) => session.key,
  session_key: (session) => session.key,
};

/** A copy of `value` whose string `session_id` / `stored_session_id` / `session_key` members name `session`. */
export function withSessionIds(value: unknown, session: LiveSession): unknown {
  if (Array.isArray(value)) return value.map((item) => withSessionIds(item, session));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      const id = SESSION_KEYS[key];
      return [key, id && typeof item === 'string' ? id(session) : withSessionIds(item, session)];
    }),
  );
}
