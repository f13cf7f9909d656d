import {
  acceptedWithoutCredential,
  type AuthBoundaryTarget,
  expiredTicketVerdict,
  foreignOriginVerdict,
  legacyTokenVerdict,
  missingCredentialVerdict,
  refusedReachesNoSessionVerdict,
  reusedTicketVerdict,
  selectedProtocolVerdict,
  ticketProtocolAloneVerdict,
  twoTicketProtocolsVerdict,
  wrongTicketVerdict,
} from '../scenarios/authBoundary.js';
import type { ScenarioVerdict } from '../../../src/run/scenarioVerdict.js';
import { targetIsGated } from '../../../src/config/runConfig.js';
import type { CellBody, CellFixtures } from '../../../src/run/cellTypes.js';
import type { RunPlan } from '../../../src/run/runPlan.js';

export const AUTH_ROW = '(auth)';
/** The longest the expiry check waits for a ticket to expire (its cell has this plus the probes' time). */
export const EXPIRY_BUDGET_MS = 20_000;

/** The `(auth)` row runs against a gated target, or when the user asks (`--auth-checks`). */
export function authRowRuns(plan: RunPlan): boolean {
  return targetIsGated(plan.config) || plan.config.authChecks === true;
}

function boundaryOf({ target, connect }: CellFixtures): AuthBoundaryTarget | string {
  if (!/^wss?:/i.test(target.url)) return 'the auth boundary is the WebSocket upgrade; the target is an HTTP endpoint';
  if (!target.tickets) return 'the check mints its own tickets: run with --auth ticket (a login, a session cookie or a ticket command)';
  return { url: target.url, tickets: target.tickets, legacyToken: target.token, connect, expiryBudgetMs: EXPIRY_BUDGET_MS };
}

/**
 * A cell of the auth row. `ticketless` checks (no credential, a made-up ticket, the legacy token) need no login;
 * the probes of a ticketless check then get an explicit throwaway ticket source that is never asked.
 */
export function authCell(verdict: (target: AuthBoundaryTarget) => Promise<ScenarioVerdict>, options: { ticketless?: boolean; methods?: readonly string[] } = {}): CellBody {
  return async (fixtures) => {
    const { plan, target, connect } = fixtures;
    const missing = (options.methods ?? []).filter((method) => !plan.contracts.some((contract) => contract.method(method)));
    if (missing.length > 0) return { status: 'n/a', detail: `the target's contract does not declare ${missing.join(', ')}`, violations: [] };
    const boundary = boundaryOf(fixtures);
    if (typeof boundary !== 'string') return verdict(boundary);
    if (!/^wss?:/i.test(target.url)) return { status: 'n/a', detail: boundary, violations: [] };
    if (!targetIsGated(plan.config)) {
      // --auth-checks on a target the run does not declare gated: one that lets anyone in has no boundary to judge.
      const accepted = await acceptedWithoutCredential(target.url);
      if (accepted !== undefined) {
        return { status: 'n/a', detail: `no refusal was observed: the target accepted every credential, even none (${accepted}); it is not declared gated (--auth ticket), so it has no auth boundary to judge`, violations: [], evidence: { answersJudged: 1 } };
      }
    }
    if (!options.ticketless) return { status: 'n/a', detail: boundary, violations: [] };
    const unavailable = { describe: 'no ticket source', secrets: [], mint: () => Promise.reject(new Error('this check presents no ticket of the run')) };
    return verdict({ url: target.url, tickets: unavailable, legacyToken: target.token, connect, expiryBudgetMs: EXPIRY_BUDGET_MS });
  };
}

export const AUTH_CELLS = {
  'auth.missing-refused': authCell(missingCredentialVerdict, { ticketless: true }),
  'auth.wrong-refused': authCell(wrongTicketVerdict, { ticketless: true }),
  'auth.reused-refused': authCell(reusedTicketVerdict),
  'auth.expired-refused': authCell(expiredTicketVerdict),
  'auth.legacy-token-refused': authCell(legacyTokenVerdict, { ticketless: true }),
  'auth.ticket-protocol-alone-refused': authCell(ticketProtocolAloneVerdict),
  'auth.two-ticket-protocols-refused': authCell(twoTicketProtocolsVerdict),
  'auth.selected-protocol': authCell(selectedProtocolVerdict),
  'auth.foreign-origin-refused': authCell(foreignOriginVerdict),
  'auth.refused-reaches-no-session': authCell(refusedReachesNoSessionVerdict, { methods: ['session.create', 'session.active_list'] }),
} as const;
