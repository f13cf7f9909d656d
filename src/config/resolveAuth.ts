import { randomBytes } from 'node:crypto';
import { HarnessError } from '../../core/index.js';
import { type AuthSettings, secretFromEnv, type TicketLogin } from '../client/authSettings.js';
import type { Profile } from '../profile/profile.js';
import type { AuthStatus } from '../profile/profileAuth.js';
import { isStdioTarget } from '../client/targetUrl.js';
import type { RunSettings } from './optionTable.js';

/**
 * The auth options of `run` and `replay` (the table's AUTH_OPTIONS; credentials are always named by environment
 * variable). They are resolved here only, into the AuthSettings every connection of the run uses.
 */
export type AuthOptions = Partial<Pick<RunSettings, 'auth' | 'login' | 'user' | 'passwordEnv' | 'cookieEnv' | 'ticketCommand' | 'ticketVia' | 'credentialEnv' | 'tokenEnv'>>;

/** The ticket login the options name, if any; exactly one of --login basic, --cookie-env, --ticket-command. */
function loginOf(options: AuthOptions): TicketLogin | undefined {
  const given = [options.login, options.cookieEnv, options.ticketCommand].filter((value) => value !== undefined);
  if (given.length > 1) throw new HarnessError('USAGE', 'pass one way to obtain tickets: --login basic, --cookie-env or --ticket-command');
  if (options.login === 'basic') {
    if (!options.user || !options.passwordEnv) throw new HarnessError('USAGE', '--login basic needs --user USER and --password-env VAR (the NAME of the variable holding the password)');
    secretFromEnv(options.passwordEnv, '--password-env');
    return { kind: 'basic', user: options.user, passwordEnv: options.passwordEnv };
  }
  if (options.cookieEnv) {
    secretFromEnv(options.cookieEnv, '--cookie-env');
    return { kind: 'cookie', cookieEnv: options.cookieEnv };
  }
  if (options.ticketCommand) return { kind: 'command', command: options.ticketCommand };
  if (options.user || options.passwordEnv) throw new HarnessError('USAGE', '--user and --password-env belong to --login basic');
  return undefined;
}

const GATED_HINT =
  'use --auth ticket --login basic --user USER --password-env VAR (or --cookie-env VAR with an existing session cookie, or --ticket-command CMD for another provider), optionally --ticket-via subprotocol';

function gatedError(where: string, status: AuthStatus | undefined, chosen: string): HarnessError {
  const providers = status?.providers.length ? ` (providers: ${status.providers.join(', ')})` : '';
  return new HarnessError('AUTH_FAILED', `${where} is gated${providers}: it refuses ${chosen}; ${GATED_HINT}`);
}

/** Settings from explicit options, before any discovery. */
function explicitSettings(options: AuthOptions): AuthSettings | undefined {
  const login = loginOf(options);
  const mode = options.auth ?? (login ? 'ticket' : options.credentialEnv ? 'internal' : undefined);
  if (mode === 'ticket') {
    if (!login) throw new HarnessError('USAGE', `--auth ticket needs a way to obtain tickets: ${GATED_HINT.replace(/^use --auth ticket /, '')}`);
    return { mode, login, via: options.ticketVia ?? 'query' };
  }
  if (login) throw new HarnessError('USAGE', `--login, --cookie-env and --ticket-command obtain tickets: they go with --auth ticket, not --auth ${mode}`);
  if (mode === 'internal') {
    if (!options.credentialEnv) throw new HarnessError('USAGE', '--auth internal needs --credential-env VAR (the NAME of the variable holding the credential)');
    secretFromEnv(options.credentialEnv, '--credential-env');
    return { mode, credentialEnv: options.credentialEnv };
  }
  return mode === 'token' ? { mode } : undefined;
}

/**
 * The auth of a run against an external target. Without --auth it is discovered from the dashboard's
 * `/api/status` (and said); the legacy token against a gated target fails fast with the options to use.
 */
export async function resolveExternalAuth(target: string, profile: Pick<Profile, 'auth'>, options: AuthOptions, say: (line: string) => void): Promise<AuthSettings> {
  const explicit = explicitSettings(options);
  if (explicit && explicit.mode !== 'token') return explicit;
  const status = isStdioTarget(target) || !profile.auth ? undefined : await profile.auth.discover(target);
  if (status?.authRequired) throw gatedError(`the target's dashboard (${new URL(target).host})`, status, explicit ? '--auth token (the legacy ?token=)' : options.tokenEnv ? 'the legacy token of --token-env' : 'connections without a ticket');
  // A stdio target is a process the run starts itself: no connection to authenticate, nothing to say.
  if (!explicit && !isStdioTarget(target)) say(`auth: ${status ? `the target's /api/status says auth_required: false, so ` : ''}${options.tokenEnv ? 'the legacy token (?token=)' : 'no credential'}`);
  return { mode: 'token' };
}

/**
 * Names of the variables that carry the credentials made up for an embedded gated gateway. Each run gets its own
 * (a random suffix), so that runs sharing one process (the in-process self-test) never read another's password.
 */
const embeddedEnvName = (what: 'PASSWORD' | 'TOKEN'): string => `EMBEDDED_GATEWAY_${what}_${randomBytes(6).toString('hex')}`;
export const EMBEDDED_USER = 'contract-gate';

/**
 * The auth of a run against the embedded gateway. Gated, it gets a basic account made up for this run (unless the
 * options name one) and a legacy token the auth checks present; the legacy token alone is refused as it would be.
 */
export function resolveEmbeddedAuth(gated: boolean, options: AuthOptions): { settings: AuthSettings | undefined; env: Record<string, string>; tokenEnv: string | undefined } {
  const explicit = explicitSettings(options);
  if (!gated) {
    if (explicit && explicit.mode !== 'token') throw new HarnessError('USAGE', `--auth ${explicit.mode} needs a gated target: add --embedded-auth gated, or pass --target`);
    return { settings: explicit, env: {}, tokenEnv: options.tokenEnv };
  }
  if (explicit?.mode === 'token') throw gatedError('the embedded gateway (--embedded-auth gated)', undefined, '--auth token (the legacy ?token=)');
  if (explicit?.mode === 'internal') throw new HarnessError('USAGE', '--embedded-auth gated logs in with --auth ticket --login basic (the default); --auth internal is for an external target');
  const env: Record<string, string> = {};
  let settings = explicit;
  if (!settings) {
    const passwordEnv = embeddedEnvName('PASSWORD');
    env[passwordEnv] = randomBytes(18).toString('base64url');
    settings = { mode: 'ticket', login: { kind: 'basic', user: EMBEDDED_USER, passwordEnv }, via: options.ticketVia ?? 'query' };
  } else if (settings.mode === 'ticket' && settings.login.kind !== 'basic') {
    throw new HarnessError('USAGE', '--embedded-auth gated serves a basic login: use --login basic (or no login options)');
  }
  let tokenEnv = options.tokenEnv;
  if (!tokenEnv) {
    tokenEnv = embeddedEnvName('TOKEN');
    env[tokenEnv] = randomBytes(18).toString('base64url');
  }
  return { settings, env, tokenEnv };
}

