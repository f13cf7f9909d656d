import type { Transport } from './transport.js';

/** What one connection presents to the target, and what must never appear in any text the harness writes. */
export interface ConnectionCredentials {
  /** Added to the target URL (WebSocket and HTTP); a parameter the URL already has is left as it is. */
  query?: Record<string, string>;
  /** Offered on the WebSocket upgrade, in this order. */
  subprotocols?: string[];
  /** Sent with every HTTP POST and with the WebSocket upgrade request. */
  headers?: Record<string, string>;
  /** Environment variables of a stdio child. */
  env?: Record<string, string>;
  /** Redacted from transcripts, exchanges and messages. */
  secrets: string[];
}

export interface ConnectionAttempt {
  transport: Transport['kind'];
  /** The target as given (URL or `stdio:` command line). */
  target: string;
}

export interface OpenedConnectionInfo {
  transport: Transport['kind'];
  /** The WebSocket subprotocol the server selected ('' when none); undefined for HTTP and stdio. */
  selectedProtocol: string | undefined;
}

/**
 * How a connection authenticates. `present` is called once per connection, before it opens (a ticket kind
 * fetches a fresh single-use ticket there); `refuse` may veto the opened connection, e.g. when the server
 * selected another subprotocol than the one the kind requires.
 */
export interface ConnectionAuth {
  readonly kind: string;
  present(attempt: ConnectionAttempt): Promise<ConnectionCredentials>;
  /** Why the opened connection must not be used, or undefined to accept it. */
  refuse?(opened: OpenedConnectionInfo): string | undefined;
}

export function noAuth(): ConnectionAuth {
  return { kind: 'none', present: () => Promise.resolve({ secrets: [] }) };
}

function urlCarriesCredential(target: string): boolean {
  try {
    const { searchParams } = new URL(target);
    return searchParams.has('token') || searchParams.has('ticket') || searchParams.has('internal');
  } catch {
    return false;
  }
}

/** A long-lived token: `?token=` on a WebSocket URL (unless it carries one), `Authorization: Bearer` over HTTP. */
export function tokenAuth(token: string): ConnectionAuth {
  return {
    kind: 'token',
    present: ({ transport, target }) => {
      const secrets = [token];
      if (transport === 'http') return Promise.resolve({ headers: { authorization: `Bearer ${token}` }, secrets });
      if (transport === 'ws' && !urlCarriesCredential(target)) return Promise.resolve({ query: { token }, secrets });
      return Promise.resolve({ secrets });
    },
  };
}

/** The auth of the `token` option: the token kind for a non-empty token, none otherwise. */
export function authFor(options: { auth?: ConnectionAuth; token?: string }): ConnectionAuth {
  return options.auth ?? (options.token ? tokenAuth(options.token) : noAuth());
}

/** How a ticket travels on the upgrade: `?ticket=` or the subprotocol pair. */
export type TicketPresentation = 'query' | 'subprotocol';

/** Where tickets come from: a dashboard login, an existing session, or a command of the user's. */
export interface TicketSource {
  /** How the source logs in, for messages ("basic login as ci", "the session cookie of $VAR", …). */
  readonly describe: string;
  /** One fresh single-use ticket for a connection to `target`; fails with AUTH_FAILED and the HTTP status. */
  mint(target: string): Promise<MintedTicket>;
  /** The headers that authenticate REST calls to `target`'s dashboard (its session cookie), when the source has one. */
  sessionHeaders?(target: string): Promise<Record<string, string>>;
  /** Long-lived secrets the source holds (password, cookie), redacted beside each ticket. */
  readonly secrets: readonly string[];
}

export interface MintedTicket {
  readonly ticket: string;
  /** How long the ticket stays valid, when the source says (`ttl_seconds` of the ticket endpoint). */
  readonly ttlSeconds: number | undefined;
}

/** A server-spawned client's process-lifetime credential: `?internal=` on every connection. */
export function internalAuth(credential: string): ConnectionAuth {
  return {
    kind: 'internal',
    present: ({ transport, target }) => {
      const secrets = [credential];
      if (transport === 'ws' && !urlCarriesCredential(target)) return Promise.resolve({ query: { internal: credential }, secrets });
      return Promise.resolve({ secrets });
    },
  };
}
