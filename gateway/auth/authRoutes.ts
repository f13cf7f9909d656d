import type { IncomingMessage } from 'node:http';
import { type GatedAuth, SESSION_COOKIE } from './gatedAuth.js';

export const STATUS_PATH = '/api/status';
export const PASSWORD_LOGIN_PATH = '/auth/password-login';
export const WS_TICKET_PATH = '/api/auth/ws-ticket';
const MAX_LOGIN_BYTES = 16 * 1024;

type Reply = (status: number, body?: string, headers?: Record<string, string>) => void;

async function jsonBody(request: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  let text = '';
  for await (const chunk of request) {
    text += (chunk as Buffer).toString('utf8');
    if (text.length > MAX_LOGIN_BYTES) return undefined;
  }
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The dashboard's auth endpoints: `GET /api/status` in both modes; in gated mode `POST /auth/password-login`
 * (`{provider: "basic", username, password, next}` → session cookie) and `POST /api/auth/ws-ticket` (session →
 * `{ticket, ttl_seconds}`). Returns false when the path is none of them.
 */
export async function handleAuthRoute(auth: GatedAuth | undefined, request: IncomingMessage, path: string, reply: Reply): Promise<boolean> {
  if (path === STATUS_PATH) {
    if (request.method !== 'GET') reply(405, JSON.stringify({ error: 'method not allowed' }), { allow: 'GET' });
    else reply(200, JSON.stringify({ auth_required: auth !== undefined, auth_providers: auth?.providers ?? [], auth_mode: auth ? 'gated' : 'loopback' }));
    return true;
  }
  if (!auth || (path !== PASSWORD_LOGIN_PATH && path !== WS_TICKET_PATH)) return false;
  if (request.method !== 'POST') {
    reply(405, JSON.stringify({ error: 'method not allowed' }), { allow: 'POST' });
    return true;
  }
  if (path === WS_TICKET_PATH) {
    const user = auth.userOf(request);
    if (user === undefined) reply(401, JSON.stringify({ error: 'unauthenticated' }));
    else {
      const { ticket, ttlSeconds } = auth.mint(user);
      reply(200, JSON.stringify({ ticket, ttl_seconds: ttlSeconds }), { 'cache-control': 'no-store' });
    }
    return true;
  }
  const body = await jsonBody(request);
  if (!body) reply(400, JSON.stringify({ error: 'expected a JSON object {provider, username, password, next}' }));
  else if (body['provider'] !== 'basic') reply(400, JSON.stringify({ error: `unknown provider ${JSON.stringify(body['provider'])}; this dashboard offers: basic` }));
  else {
    const session = auth.login(body['username'], body['password']);
    if (session === undefined) reply(401, JSON.stringify({ error: 'invalid credentials' }));
    else reply(200, JSON.stringify({ ok: true, next: typeof body['next'] === 'string' ? body['next'] : '/' }), { 'set-cookie': `${SESSION_COOKIE}=${session}; HttpOnly; Path=/; SameSite=Lax` });
  }
  return true;
}
