import { randomBytes } from 'node:crypto';

export type TicketCheck = 'ok' | 'unknown' | 'consumed' | 'expired';

interface TicketEntry {
  readonly expiresAt: number;
  readonly user: string;
  consumed: boolean;
}

/**
 * Single-use WebSocket tickets with a time to live, as `dashboard_auth/ws_tickets.py` keeps them: minted for a
 * logged-in user, consumed by the first upgrade that presents them. Consumed tickets are remembered until they
 * expire, so that a reuse is told apart from a ticket that never existed.
 */
export class TicketStore {
  private readonly tickets = new Map<string, TicketEntry>();

  constructor(
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  mint(user: string): string {
    this.collect();
    const ticket = randomBytes(32).toString('base64url');
    this.tickets.set(ticket, { expiresAt: this.now() + this.ttlMs, user, consumed: false });
    return ticket;
  }

  /** Checks a presented ticket and consumes it when it is good. */
  consume(ticket: string): TicketCheck {
    const entry = this.tickets.get(ticket);
    if (!entry) return 'unknown';
    if (entry.consumed) return 'consumed';
    if (entry.expiresAt < this.now()) return 'expired';
    entry.consumed = true;
    return 'ok';
  }

  private collect(): void {
    const now = this.now();
    for (const [ticket, entry] of this.tickets) if (entry.expiresAt < now) this.tickets.delete(ticket);
  }
}
