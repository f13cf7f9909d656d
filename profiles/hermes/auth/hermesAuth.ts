import { secretFromEnv, type TicketLogin } from '../../../src/client/authSettings.js';
import type { TicketSource } from '../../../src/client/connectionAuth.js';
import type { ProfileAuth } from '../../../src/profile/profileAuth.js';
import { commandTicketSource, DashboardLogin, dashboardBase, fetchAuthStatus } from './dashboardLogin.js';
import { ticketAuth } from './ticketAuth.js';

/** Where tickets come from: a basic dashboard login, an existing session cookie, or the user's command. */
export function hermesTicketSource(login: TicketLogin, env: NodeJS.ProcessEnv = process.env): TicketSource {
  if (login.kind === 'basic') return new DashboardLogin({ kind: 'basic', user: login.user, password: secretFromEnv(login.passwordEnv, '--password-env', env) });
  if (login.kind === 'cookie') return new DashboardLogin({ kind: 'cookie', cookie: secretFromEnv(login.cookieEnv, '--cookie-env', env), variable: login.cookieEnv });
  return commandTicketSource(login.command);
}

/** The Hermes dashboard's gated mode: `/api/status`, a login, one `/api/auth/ws-ticket` per connection. */
export const HERMES_AUTH: ProfileAuth = {
  discover: (target) => fetchAuthStatus(target),
  ticketSource: hermesTicketSource,
  ticketAuth,
  dashboardBase,
};
