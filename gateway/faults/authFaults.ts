import type { AuthRelaxation } from '../auth/authRelaxations.js';
import type { GatewayFault } from './faultTypes.js';

/** A fault of gated mode: one of its rules switched off (a loopback gateway is unaffected). */
const relaxed = (name: string, rule: AuthRelaxation, breaks: string, check: string): GatewayFault => ({ name, breaks, check, install: (seams) => seams.auth.relax(rule) });

export const AUTH_FAULTS: readonly GatewayFault[] = [
  relaxed('auth.missing-credential-accepted', 'admit-missing-credential', 'gated mode admits an upgrade that presents no credential at all', 'auth.missing-refused'),
  relaxed('auth.unknown-ticket-accepted', 'admit-unknown-ticket', 'gated mode admits a ticket it never minted', 'auth.wrong-refused'),
  relaxed('auth.tickets-reusable', 'admit-reused-ticket', 'tickets are not single-use: a consumed ticket opens a second connection', 'auth.reused-refused'),
  relaxed('auth.expired-ticket-accepted', 'admit-expired-ticket', 'ticket expiry is not checked', 'auth.expired-refused'),
  relaxed('auth.legacy-token-accepted', 'admit-legacy-token', 'the legacy ?token= is still accepted in gated mode', 'auth.legacy-token-refused'),
  relaxed('auth.ticket-protocol-alone-accepted', 'admit-ticket-protocol-alone', 'a ticket subprotocol offered without hermes-gateway-v1 is accepted (and echoed)', 'auth.ticket-protocol-alone-refused'),
  relaxed('auth.two-ticket-protocols-accepted', 'admit-two-ticket-protocols', 'an offer with two ticket subprotocols is accepted with the first ticket', 'auth.two-ticket-protocols-refused'),
  relaxed('auth.ticket-protocol-echoed', 'select-ticket-protocol', 'the ticket-bearing subprotocol is selected (echoed to the client) instead of hermes-gateway-v1', 'auth.selected-protocol'),
  relaxed('auth.foreign-origin-accepted', 'admit-foreign-origin', 'the Host/Origin guard is off: a foreign Origin with a good ticket is admitted', 'auth.foreign-origin-refused'),
  relaxed('auth.refused-frames-dispatched', 'dispatch-refused-frames', 'a refused connection is closed 4401 only after its frames were dispatched (unanswered)', 'auth.refused-reaches-no-session'),
];
