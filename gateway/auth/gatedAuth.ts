import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AuthRelaxations } from './authRelaxations.js';
import { type BoundAddress, hostOriginRefusal } from './hostOriginGuard.js';
import { TicketStore } from './ticketStore.js';

export const GATEWAY_PROTOCOL = 'hermes-gateway-v1';
export const TICKET_PROTOCOL_PREFIX = 'hermes-gateway-ticket.';
export const SESSION_COOKIE = 'hermes_session';
export const DEFAULT_TICKET_TTL_MS = 30_000;

/** Gated mode of the dashboard (a public bind): a basic login, single-use tickets, no legacy token. */
export interface GatedAuthOptions {
  readonly basicUser: string;
  readonly basicPassword: string;
  /** Time to live of a ticket. Default 30 000. */
  readonly ticketTtlMs?: number;
  /** The process-lifetime credential of server-spawned clients (`?internal=`); default a random one nobody is told. */
  readonly internalCredential?: string;
}

/** What gated mode counted, for tests: every ticket minted against every connection admitted. */
export interface AuthCounters {
  readonly logins: number;
  readonly ticketsMinted: number;
  readonly ticketsRedeemed: number;
  /** WebSocket connections handed to the gateway core. */
  readonly connectionsOpened: number;
  /** Refused upgrades by reason (`no_credential`, `ticket_invalid`, `origin_mismatch`, …). */
  readonly refused: Readonly<Record<string, number>>;
}

export type Admission =
  | { readonly admitted: true; readonly credential: string; readonly subprotocol: string | false }
  | {
      readonly admitted: false;
      readonly code: 4401 | 4403;
      readonly reason: string;
      /** The protocol selected so that the close code reaches the client; false when none can be. */
      readonly subprotocol: string | false;
    };

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function offeredProtocols(request: IncomingMessage): string[] {
  const raw = request.headers['sec-websocket-protocol'];
  return (Array.isArray(raw) ? raw.join(',') : (raw ?? ''))
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');
}

/** The ticket of an unambiguous protocol set, `none` without a ticket protocol, `invalid` otherwise. */
function ticketFromProtocols(protocols: readonly string[], relax: AuthRelaxations): { ticket: string } | 'none' | 'invalid' {
  const tickets = protocols.filter((value) => value.startsWith(TICKET_PROTOCOL_PREFIX));
  if (tickets.length === 0) return 'none';
  if (!protocols.includes(GATEWAY_PROTOCOL) && !relax.has('admit-ticket-protocol-alone')) return 'invalid';
  if (tickets.length !== 1 && !relax.has('admit-two-ticket-protocols')) return 'invalid';
  const ticket = (tickets[0] as string).slice(TICKET_PROTOCOL_PREFIX.length);
  return ticket ? { ticket } : 'invalid';
}

/**
 * The gated-mode auth of one gateway: the basic login and its session cookies, the ticket store, the upgrade
 * admission (`_ws_auth_reason` then the Host/Origin guard, 4401 before 4403) and the counters.
 */
export class GatedAuth {
  readonly tickets: TicketStore;
  /** Every ticket minted, in order (tests check that none of them is written anywhere). */
  readonly issued: string[] = [];
  private readonly sessions = new Map<string, string>();
  private readonly internalCredential: string;
  private counts = { logins: 0, ticketsMinted: 0, ticketsRedeemed: 0, connectionsOpened: 0 };
  private readonly refusals = new Map<string, number>();

  constructor(
    private readonly options: GatedAuthOptions,
    private readonly relax: AuthRelaxations,
    private readonly legacyToken: string | undefined,
  ) {
    this.tickets = new TicketStore(options.ticketTtlMs ?? DEFAULT_TICKET_TTL_MS);
    this.internalCredential = options.internalCredential ?? randomBytes(32).toString('base64url');
  }

  get counters(): AuthCounters {
    return { ...this.counts, refused: Object.fromEntries(this.refusals) };
  }

  get providers(): string[] {
    return ['basic'];
  }

  /** A session cookie value for good basic credentials, else undefined. */
  login(username: unknown, password: unknown): string | undefined {
    if (typeof username !== 'string' || typeof password !== 'string') return undefined;
    if (!sameSecret(username, this.options.basicUser) || !sameSecret(password, this.options.basicPassword)) return undefined;
    const session = randomBytes(24).toString('base64url');
    this.sessions.set(session, username);
    this.counts.logins++;
    return session;
  }

  /** The user of a request's session cookie, or undefined. */
  userOf(request: IncomingMessage): string | undefined {
    for (const pair of (request.headers.cookie ?? '').split(';')) {
      const [name, ...value] = pair.trim().split('=');
      if (name === SESSION_COOKIE) return this.sessions.get(value.join('='));
    }
    return undefined;
  }

  mint(user: string): { ticket: string; ttlSeconds: number } {
    this.counts.ticketsMinted++;
    const ticket = this.tickets.mint(user);
    this.issued.push(ticket);
    return { ticket, ttlSeconds: this.tickets.ttlMs / 1000 };
  }

  connectionOpened(): void {
    this.counts.connectionsOpened++;
  }

  admit(request: IncomingMessage, url: URL, bound: BoundAddress, allowedOrigins: readonly string[]): Admission {
    const protocols = offeredProtocols(request);
    const fallback = protocols.includes(GATEWAY_PROTOCOL) ? GATEWAY_PROTOCOL : false;
    const refuse = (code: 4401 | 4403, reason: string): Admission => {
      this.refusals.set(reason.split(' ')[0] as string, (this.refusals.get(reason.split(' ')[0] as string) ?? 0) + 1);
      return { admitted: false, code, reason, subprotocol: fallback };
    };
    const credential = this.credentialOf(url, protocols);
    if ('refused' in credential) return refuse(4401, credential.refused);
    const guard = hostOriginRefusal(request.headers, bound, allowedOrigins);
    if (guard !== undefined && !this.relax.has('admit-foreign-origin')) return refuse(4403, guard);
    return { admitted: true, credential: credential.kind, subprotocol: credential.subprotocol ?? fallback };
  }

  private credentialOf(url: URL, protocols: readonly string[]): { kind: string; subprotocol?: string } | { refused: string } {
    const internal = url.searchParams.get('internal');
    if (internal) return sameSecret(internal, this.internalCredential) ? { kind: 'internal' } : { refused: 'internal_invalid' };
    const fromProtocols = ticketFromProtocols(protocols, this.relax);
    if (fromProtocols === 'invalid') return { refused: 'ticket_invalid protocols' };
    const ticket = fromProtocols !== 'none' ? fromProtocols.ticket : (url.searchParams.get('ticket') ?? '');
    if (!ticket) return this.withoutTicket(url);
    const check = this.tickets.consume(ticket);
    const admitted =
      check === 'ok' ||
      (check === 'unknown' && this.relax.has('admit-unknown-ticket')) ||
      (check === 'consumed' && this.relax.has('admit-reused-ticket')) ||
      (check === 'expired' && this.relax.has('admit-expired-ticket'));
    if (!admitted) return { refused: `ticket_invalid ${check}` };
    if (check === 'ok') this.counts.ticketsRedeemed++;
    if (fromProtocols === 'none') return { kind: 'ticket' };
    const echoed = protocols.find((value) => value === `${TICKET_PROTOCOL_PREFIX}${ticket}`);
    // Only the public protocol is ever selected; a lone ticket protocol admitted by a fault can only be echoed.
    const echo = this.relax.has('select-ticket-protocol') || !protocols.includes(GATEWAY_PROTOCOL);
    return { kind: 'ticket-subprotocol', subprotocol: echo && echoed ? echoed : GATEWAY_PROTOCOL };
  }

  /** The legacy token is refused in gated mode: a leaked session token must not grant access. */
  private withoutTicket(url: URL): { kind: string } | { refused: string } {
    const token = url.searchParams.get('token');
    if (token) {
      const legacy = this.legacyToken !== undefined && sameSecret(token, this.legacyToken);
      return legacy && this.relax.has('admit-legacy-token') ? { kind: 'token' } : { refused: 'legacy_token_refused' };
    }
    return this.relax.has('admit-missing-credential') ? { kind: 'none' } : { refused: 'no_credential' };
  }
}
