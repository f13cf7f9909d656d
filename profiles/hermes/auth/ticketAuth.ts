import { HarnessError } from '../../../core/index.js';
import type { ConnectionAuth, TicketPresentation, TicketSource } from '../../../src/client/connectionAuth.js';

/** The stable public subprotocol of the Hermes gateway; the only one a server may select. */
export const GATEWAY_PROTOCOL = 'hermes-gateway-v1';
/** A subprotocol `hermes-gateway-ticket.<ticket>` carries a ticket; it is a credential, never selected. */
export const TICKET_PROTOCOL_PREFIX = 'hermes-gateway-ticket.';

/** The subprotocols that present `ticket`: the public protocol first, then the ticket-bearing one. */
export function ticketProtocols(ticket: string): string[] {
  return [GATEWAY_PROTOCOL, `${TICKET_PROTOCOL_PREFIX}${ticket}`];
}

/**
 * Hermes gated mode: a fresh single-use ticket for every connection, as `?ticket=` or as subprotocols. With the
 * subprotocol presentation the server must select exactly `hermes-gateway-v1`; anything else (the ticket-bearing
 * protocol echoed back, nothing) vetoes the connection. HTTP requests carry the source's session instead.
 */
export function ticketAuth(source: TicketSource, via: TicketPresentation): ConnectionAuth & { readonly minted: () => number } {
  let minted = 0;
  return {
    kind: 'ticket',
    minted: () => minted,
    present: async ({ transport, target }) => {
      const secrets = [...source.secrets];
      if (transport === 'stdio') return { secrets };
      if (transport === 'http') {
        if (!source.sessionHeaders) throw new HarnessError('USAGE', `an HTTP target in gated mode is called with a dashboard session: ${source.describe} has none; use --login basic or --cookie-env`);
        return { headers: await source.sessionHeaders(target), secrets };
      }
      const { ticket } = await source.mint(target);
      minted++;
      secrets.push(ticket);
      return via === 'query' ? { query: { ticket }, secrets } : { subprotocols: ticketProtocols(ticket), secrets };
    },
    refuse: ({ transport, selectedProtocol }) => {
      if (transport !== 'ws' || via !== 'subprotocol' || selectedProtocol === GATEWAY_PROTOCOL) return undefined;
      return `the server selected subprotocol "${selectedProtocol ?? ''}", not ${GATEWAY_PROTOCOL}`;
    },
  };
}

