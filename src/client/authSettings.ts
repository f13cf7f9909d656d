import { HarnessError } from '../../core/index.js';
import type { ProfileAuth } from '../profile/profileAuth.js';
import { type ConnectionAuth, internalAuth, noAuth, type TicketPresentation, tokenAuth } from './connectionAuth.js';

/** How tickets are obtained in gated mode. Secrets are named by environment variable, never held. */
export type TicketLogin =
  | { readonly kind: 'basic'; readonly user: string; readonly passwordEnv: string }
  | { readonly kind: 'cookie'; readonly cookieEnv: string }
  | { readonly kind: 'command'; readonly command: string };

/**
 * How every connection of a run authenticates (`--auth`): the loopback token (`?token=`, the variable of
 * `--token-env`), a fresh gated-mode ticket per connection, or a server-spawned client's internal credential.
 */
export type AuthSettings =
  | { readonly mode: 'token' }
  | { readonly mode: 'ticket'; readonly login: TicketLogin; readonly via: TicketPresentation }
  | { readonly mode: 'internal'; readonly credentialEnv: string };

export const AUTH_MODES = ['token', 'ticket', 'internal'] as const;

/** The value of the variable an option names; the value itself never appears on a command line. */
export function secretFromEnv(variable: string, option: string, env: NodeJS.ProcessEnv = process.env): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable)) throw new HarnessError('USAGE', `${option} takes the NAME of an environment variable (e.g. GATEWAY_PASSWORD), got "${variable}"`);
  const value = env[variable];
  if (!value) throw new HarnessError('USAGE', `${option} ${variable}: the environment variable ${variable} is not set or empty`);
  return value;
}

/** The profile's ticket login, or a usage error when the target's family has none. */
export function ticketLoginOf(profileAuth: ProfileAuth | undefined, profileName: string): ProfileAuth {
  if (!profileAuth) throw new HarnessError('USAGE', `--auth ticket: the ${profileName} profile has no ticket login; use --auth token (--token-env) or --auth internal`);
  return profileAuth;
}

/** The one auth every transport of a run uses, built from the settings and the environment. */
export function connectionAuthFrom(settings: AuthSettings, token: string | undefined, profile: { name: string; auth?: ProfileAuth }, env: NodeJS.ProcessEnv = process.env): ConnectionAuth {
  if (settings.mode === 'ticket') {
    const auth = ticketLoginOf(profile.auth, profile.name);
    return auth.ticketAuth(auth.ticketSource(settings.login, env), settings.via);
  }
  if (settings.mode === 'internal') return internalAuth(secretFromEnv(settings.credentialEnv, '--credential-env', env));
  return token ? tokenAuth(token) : noAuth();
}

/** One line for the run's banner: which mode, and how tickets are obtained (no secret). */
export function describeAuth(settings: AuthSettings): string {
  if (settings.mode === 'internal') return `internal credential from $${settings.credentialEnv}`;
  if (settings.mode === 'token') return 'legacy token (?token=)';
  const login = settings.login.kind === 'basic' ? `basic login as ${settings.login.user}` : settings.login.kind === 'cookie' ? `session cookie from $${settings.login.cookieEnv}` : 'ticket command';
  return `fresh ticket per connection (${login}, presented as ${settings.via === 'query' ? '?ticket=' : 'subprotocol'})`;
}
