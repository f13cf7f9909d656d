import { execFile } from 'node:child_process';
import { HarnessError } from '../../../core/index.js';
import type { MintedTicket, TicketSource } from '../../../src/client/connectionAuth.js';
import { Redactor } from '../../../src/client/redact.js';
import type { AuthStatus } from '../../../src/profile/profileAuth.js';

/** Paths of the Hermes dashboard's auth endpoints (gated mode). */
export const STATUS_PATH = '/api/status';
export const PASSWORD_LOGIN_PATH = '/auth/password-login';
export const WS_TICKET_PATH = '/api/auth/ws-ticket';
const HTTP_TIMEOUT_MS = 10_000;

/** The dashboard a gateway URL belongs to: its origin, with ws(s) mapped to http(s). */
export function dashboardBase(target: string): string {
  const url = new URL(target);
  if (url.protocol === 'ws:') url.protocol = 'http:';
  if (url.protocol === 'wss:') url.protocol = 'https:';
  return url.origin;
}

/** What `GET /api/status` says about auth; undefined when the target has no such endpoint (not a dashboard). */
export async function fetchAuthStatus(target: string, timeoutMs = 5_000): Promise<AuthStatus | undefined> {
  try {
    const response = await fetch(`${dashboardBase(target)}${STATUS_PATH}`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return undefined;
    const body = (await response.json()) as { auth_required?: unknown; auth_providers?: unknown };
    if (typeof body !== 'object' || body === null || typeof body.auth_required !== 'boolean') return undefined;
    const providers = Array.isArray(body.auth_providers) ? body.auth_providers.map((p) => (typeof p === 'string' ? p : String((p as { name?: unknown })?.name ?? p))) : [];
    return { authRequired: body.auth_required, providers };
  } catch {
    return undefined;
  }
}

/** The `name=value` pairs of a response's Set-Cookie headers, as one Cookie header. */
function cookieOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]?.trim() ?? '')
    .filter((pair) => pair.includes('='))
    .join('; ');
}

function authFailure(what: string, status: number, body: string, redactor: Redactor): HarnessError {
  const detail = body.trim() ? `: ${redactor.redact(body.trim().slice(0, 200))}` : '';
  return new HarnessError('AUTH_FAILED', `${what} answered HTTP ${status}${detail}`);
}

async function parseTicket(response: Response, url: string, redactor: Redactor): Promise<MintedTicket> {
  const text = await response.text();
  if (!response.ok) throw authFailure(`POST ${url}`, response.status, text, redactor);
  let body: { ticket?: unknown; ttl_seconds?: unknown };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw new HarnessError('AUTH_FAILED', `POST ${url} did not answer JSON {ticket, ttl_seconds}`);
  }
  if (typeof body.ticket !== 'string' || body.ticket === '') throw new HarnessError('AUTH_FAILED', `POST ${url} answered no ticket`);
  return { ticket: body.ticket, ttlSeconds: typeof body.ttl_seconds === 'number' ? body.ttl_seconds : undefined };
}

export type DashboardCredentials = { readonly kind: 'basic'; readonly user: string; readonly password: string } | { readonly kind: 'cookie'; readonly cookie: string; readonly variable: string };

/**
 * A dashboard session: a basic login (`POST /auth/password-login`) or an existing session cookie, then one
 * `POST /api/auth/ws-ticket` per connection. Sessions are kept per dashboard origin (sibling gateways have their own);
 * a login session that the ticket endpoint no longer accepts (401) is renewed once.
 */
export class DashboardLogin implements TicketSource {
  readonly describe: string;
  readonly secrets: readonly string[];
  private readonly sessions = new Map<string, Promise<string>>();
  private readonly redactor: Redactor;

  constructor(private readonly credentials: DashboardCredentials) {
    this.describe = credentials.kind === 'basic' ? `the basic login as ${credentials.user}` : `the session cookie in $${credentials.variable}`;
    this.secrets = credentials.kind === 'basic' ? [credentials.password] : [credentials.cookie, ...credentials.cookie.split(';').map((pair) => pair.split('=').slice(1).join('=').trim())];
    this.redactor = new Redactor(this.secrets);
  }

  async sessionHeaders(target: string): Promise<Record<string, string>> {
    return { cookie: await this.session(dashboardBase(target)) };
  }

  async mint(target: string): Promise<MintedTicket> {
    const base = dashboardBase(target);
    const url = `${base}${WS_TICKET_PATH}`;
    const post = async (cookie: string): Promise<Response> =>
      fetch(url, { method: 'POST', headers: { cookie, 'content-type': 'application/json', origin: base }, body: '{}', signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) }).catch((error: unknown) => {
        throw new HarnessError('AUTH_FAILED', `POST ${url} failed: ${(error as Error).message}`, { cause: error });
      });
    let response = await post(await this.session(base));
    if (response.status === 401 && this.credentials.kind === 'basic') {
      this.sessions.delete(base);
      response = await post(await this.session(base));
    }
    return parseTicket(response, url, this.redactor);
  }

  private session(base: string): Promise<string> {
    if (this.credentials.kind === 'cookie') return Promise.resolve(this.credentials.cookie);
    let session = this.sessions.get(base);
    if (!session) {
      session = this.login(base, this.credentials);
      session.catch(() => this.sessions.delete(base));
      this.sessions.set(base, session);
    }
    return session;
  }

  private async login(base: string, credentials: { user: string; password: string }): Promise<string> {
    const url = `${base}${PASSWORD_LOGIN_PATH}`;
    const response = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ provider: 'basic', username: credentials.user, password: credentials.password, next: '/' }),
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    }).catch((error: unknown) => {
      throw new HarnessError('AUTH_FAILED', `POST ${url} failed: ${(error as Error).message}`, { cause: error });
    });
    const text = await response.text();
    if (response.status >= 400) throw authFailure(`the basic login as ${credentials.user} (POST ${url})`, response.status, text, this.redactor);
    const cookie = cookieOf(response);
    if (!cookie) throw new HarnessError('AUTH_FAILED', `the basic login as ${credentials.user} (POST ${url}) answered HTTP ${response.status} without a session cookie`);
    return cookie;
  }
}

/**
 * Any other provider: a command of the user's (run by /bin/sh, environment inherited, the gateway URL in
 * GATEWAY_TARGET_URL) prints one fresh ticket on stdout per call.
 */
export function commandTicketSource(command: string, timeoutMs = HTTP_TIMEOUT_MS): TicketSource {
  return {
    describe: `the ticket command`,
    secrets: [],
    mint: (target) =>
      new Promise<MintedTicket>((resolve, reject) => {
        execFile('/bin/sh', ['-c', command], { timeout: timeoutMs, env: { ...process.env, GATEWAY_TARGET_URL: target }, maxBuffer: 64 * 1024 }, (error, stdout, stderr) => {
          const ticket = stdout.trim().split('\n').pop()?.trim() ?? '';
          if (error) return reject(new HarnessError('AUTH_FAILED', `the ticket command failed (${error.code ?? error.signal ?? error.message})${stderr.trim() ? `: ${new Redactor([ticket]).redact(stderr.trim().slice(0, 200))}` : ''}`));
          if (!ticket) return reject(new HarnessError('AUTH_FAILED', 'the ticket command printed no ticket'));
          resolve({ ticket, ttlSeconds: undefined });
        });
      }),
  };
}
