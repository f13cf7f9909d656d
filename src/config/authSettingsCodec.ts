import { HarnessError } from '../../core/index.js';
import type { AuthSettings, TicketLogin } from '../client/authSettings.js';

type Raw = Record<string, unknown>;

function fail(origin: string, field: string, expected: string, value: unknown): never {
  throw new HarnessError('USAGE', `run configuration ${origin} (auth): ${field} must be ${expected}, got ${JSON.stringify(value) ?? 'nothing'}`);
}

function text(raw: Raw, field: string, origin: string): string {
  const value = raw[field];
  return typeof value === 'string' && value !== '' ? value : fail(origin, field, 'a non-empty string', value);
}

function loginOf(raw: unknown, origin: string): TicketLogin {
  if (typeof raw !== 'object' || raw === null) return fail(origin, 'login', 'an object', raw);
  const login = raw as Raw;
  if (login['kind'] === 'basic') return { kind: 'basic', user: text(login, 'user', origin), passwordEnv: text(login, 'passwordEnv', origin) };
  if (login['kind'] === 'cookie') return { kind: 'cookie', cookieEnv: text(login, 'cookieEnv', origin) };
  if (login['kind'] === 'command') return { kind: 'command', command: text(login, 'command', origin) };
  return fail(origin, 'login.kind', '"basic", "cookie" or "command"', login['kind']);
}

/** The `auth` field of a run configuration (absent: the legacy token of `tokenEnv`). */
export function decodeAuthSettings(raw: unknown, origin: string): AuthSettings | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) return fail(origin, 'auth', 'an object', raw);
  const auth = raw as Raw;
  if (auth['mode'] === 'token') return { mode: 'token' };
  if (auth['mode'] === 'internal') return { mode: 'internal', credentialEnv: text(auth, 'credentialEnv', origin) };
  if (auth['mode'] !== 'ticket') return fail(origin, 'mode', '"token", "ticket" or "internal"', auth['mode']);
  const via = auth['via'];
  if (via !== 'query' && via !== 'subprotocol') return fail(origin, 'via', '"query" or "subprotocol"', via);
  return { mode: 'ticket', login: loginOf(auth['login'], origin), via };
}
