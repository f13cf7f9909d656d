import type { ConnectionAuth, TicketPresentation, TicketSource } from '../client/connectionAuth.js';
import type { TicketLogin } from '../client/authSettings.js';

/** What a target's own status endpoint says about its auth, when it has one. */
export interface AuthStatus {
  readonly authRequired: boolean;
  readonly providers: readonly string[];
}

/**
 * How a family's gated targets are reached: whether a target is gated, where fresh single-use tickets come from,
 * and how a ticket is presented on the upgrade. The generic harness knows the modes (token, ticket, internal
 * credential) and that secrets are named by environment variable; the endpoints and protocol names are here.
 */
export interface ProfileAuth {
  /** Asks the target whether it is gated; undefined when it has no such endpoint or does not answer. */
  discover(target: string): Promise<AuthStatus | undefined>;
  /** A source of fresh tickets for a login (the login's secrets are read from the environment here). */
  ticketSource(login: TicketLogin, env?: NodeJS.ProcessEnv): TicketSource;
  /** The connection auth that presents a fresh ticket on every connection. */
  ticketAuth(source: TicketSource, via: TicketPresentation): ConnectionAuth;
  /** Where a browser or REST client of the target's dashboard starts (the base URL of its auth endpoints). */
  dashboardBase(target: string): string;
}
