import { randomBytes } from 'node:crypto';
import type { CheckId } from '../../../src/checks/checkCatalogue.js';
import type { TicketSource } from '../../../src/client/connectionAuth.js';
import { GATEWAY_PROTOCOL, TICKET_PROTOCOL_PREFIX } from '../auth/ticketAuth.js';
import { probeUpgrade, type UpgradeAttempt, type UpgradeOutcome } from '../../../src/client/upgradeProbe.js';
import { outcomeOf } from '../../../core/index.js';
import { aborted, type Connect, Findings, notApplicable, type ScenarioVerdict } from '../../../src/run/scenarioVerdict.js';

/** What the auth-boundary checks need of a gated target. */
export interface AuthBoundaryTarget {
  /** The gateway URL without any credential. */
  readonly url: string;
  /** Mints the probes' tickets (the run's own login). */
  readonly tickets: TicketSource;
  /** The target's legacy token when the run knows it (`--token-env`); else a made-up one is presented. */
  readonly legacyToken: string | undefined;
  /** A valid connection, authenticated as the run's connections are. */
  readonly connect: Connect;
  /** The longest the expiry check may wait for a ticket to expire. */
  readonly expiryBudgetMs: number;
}

/** Close codes of a refusal: 4401 for a credential, 4403 for Host/Origin; 1008 (policy) from proxies in front. */
const CREDENTIAL_REFUSAL = { closeCodes: [4401, 1008], statuses: [401, 403], name: '4401' };
const ORIGIN_REFUSAL = { closeCodes: [4403, 1008], statuses: [403], name: '4403' };
type Refusal = typeof CREDENTIAL_REFUSAL;

export const FOREIGN_ORIGIN = 'https://contract-gate-foreign-origin.invalid';
/**
 * How long after `ttl_seconds` an expired ticket is presented. The dashboard counts whole seconds
 * (hermes_cli/dashboard_auth/ws_tickets.py: a ticket minted at second s expires once the current second passes
 * s + ttl), so a ticket is refused at the latest ttl + 1 s after it was minted; the wait starts after the mint's
 * answer, and 0.1 s more covers timer rounding.
 */
const EXPIRY_MARGIN_MS = 1_100;

const nonce = (): string => randomBytes(8).toString('hex');

/** A session.create that would leave a visible live session if a refused connection were served. */
function probeCreate(marker: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id: `auth-probe-${marker}`, method: 'session.create', params: { title: marker, close_on_disconnect: false } });
}

function describe(outcome: UpgradeOutcome): string {
  if (outcome.kind === 'handshake-refused') return `refused at the handshake (${outcome.detail})`;
  if (outcome.kind === 'protocol-mismatch') return `upgraded with a subprotocol the client did not offer (${outcome.detail})`;
  if (outcome.kind === 'closed') return `closed ${outcome.code}${outcome.reason ? ` "${outcome.reason}"` : ''} after ${outcome.frames.length} frame(s)`;
  return `accepted (still open after the settle time, ${outcome.frames.length} frame(s)${outcome.selectedProtocol ? `, subprotocol ${outcome.selectedProtocol}` : ''})`;
}

/** Whether the server refused: no frame at all, then a refusal close code or a refused handshake. */
export function isRefused(outcome: UpgradeOutcome, refusal: Refusal = CREDENTIAL_REFUSAL): boolean {
  if (outcome.kind === 'handshake-refused') return outcome.status === undefined || refusal.statuses.includes(outcome.status);
  return outcome.kind === 'closed' && outcome.frames.length === 0 && refusal.closeCodes.includes(outcome.code);
}

/** The findings of one auth check, with the upgrade answers it judged and how many of them were refusals. */
class AuthFindings extends Findings {
  upgradesJudged = 0;
  refusals = 0;

  /** Counts one judged upgrade answer; true when it is a refusal of one of the `refusals` kinds. */
  judged(outcome: UpgradeOutcome, ...refusals: Refusal[]): boolean {
    this.upgradesJudged++;
    const refused = (refusals.length > 0 ? refusals : [CREDENTIAL_REFUSAL]).some((refusal) => isRefused(outcome, refusal));
    if (refused) this.refusals++;
    return refused;
  }

  override verdict(passDetail: string): ScenarioVerdict {
    return { ...super.verdict(passDetail), evidence: { answersJudged: this.upgradesJudged, refusalsSeen: this.refusals } };
  }
}

function expectRefused(findings: AuthFindings, what: string, outcome: UpgradeOutcome, refusal: Refusal = CREDENTIAL_REFUSAL): void {
  if (findings.judged(outcome, refusal)) return;
  if (outcome.kind === 'closed' && outcome.frames.length > 0) {
    findings.fail(`${what} was answered before the refusal: ${describe(outcome)}, first ${outcome.frames[0]?.slice(0, 200)}`);
    return;
  }
  findings.fail(`${what} was not refused with ${refusal.name}: ${describe(outcome)}`);
}

async function attempt(target: AuthBoundaryTarget, secrets: string[], shape: Omit<UpgradeAttempt, 'url' | 'secrets'>): Promise<UpgradeOutcome> {
  return probeUpgrade({ url: target.url, secrets, ...shape });
}

type Probe = (target: AuthBoundaryTarget, findings: AuthFindings) => Promise<string>;

async function run(check: CheckId, target: AuthBoundaryTarget, probe: Probe): Promise<ScenarioVerdict> {
  const findings = new AuthFindings(check);
  try {
    const detail = await probe(target, findings);
    return findings.verdict(detail);
  } catch (error) {
    if (error instanceof NothingRefused) return notApplicable(`no refusal was observed: the target accepted every credential (${error.presented.join(', ')}), so nothing refused could reach a session; the other auth checks judge the refusals`);
    return aborted(check, 'probing the upgrade', error, findings.notes);
  }
}

/** The precondition of a check that judges what follows a refusal: no attempt was refused. */
class NothingRefused extends Error {
  constructor(readonly presented: readonly string[]) {
    super('no attempt was refused');
  }
}

/**
 * How a target not declared gated answers an upgrade without any credential, when it accepts it: such a target has
 * no auth boundary, and the refusal checks have nothing to judge. Undefined when it refuses (it has a boundary).
 */
export async function acceptedWithoutCredential(url: string): Promise<string | undefined> {
  const outcome = await probeUpgrade({ url, secrets: [], settleMs: 300 });
  return isRefused(outcome) || isRefused(outcome, ORIGIN_REFUSAL) ? undefined : describe(outcome);
}

export const missingCredentialVerdict = (target: AuthBoundaryTarget): Promise<ScenarioVerdict> =>
  run('auth.missing-refused', target, async (t, findings) => {
    const outcome = await attempt(t, [], { sendOnOpen: probeCreate(`contract-gate-auth-${nonce()}`) });
    expectRefused(findings, 'an upgrade without any credential', outcome);
    return `no credential: ${describe(outcome)}`;
  });

export const wrongTicketVerdict = (target: AuthBoundaryTarget): Promise<ScenarioVerdict> =>
  run('auth.wrong-refused', target, async (t, findings) => {
    const outcome = await attempt(t, [], { query: { ticket: randomBytes(32).toString('base64url') }, sendOnOpen: probeCreate(`contract-gate-auth-${nonce()}`) });
    expectRefused(findings, 'a ticket the dashboard never minted', outcome);
    return `unknown ticket: ${describe(outcome)}`;
  });

export const reusedTicketVerdict = (target: AuthBoundaryTarget): Promise<ScenarioVerdict> =>
  run('auth.reused-refused', target, async (t, findings) => {
    const { ticket } = await t.tickets.mint(t.url);
    const first = await attempt(t, [ticket], { query: { ticket }, settleMs: 500 });
    findings.judged(first);
    if (!findings.expect(first.kind === 'open', `a fresh ticket was not accepted: ${describe(first)}`)) return '';
    const second = await attempt(t, [ticket], { query: { ticket }, sendOnOpen: probeCreate(`contract-gate-auth-${nonce()}`) });
    expectRefused(findings, 'the second use of a ticket', second);
    return `first use accepted, second ${describe(second)}`;
  });

/** A ticket presented after its TTL; n/a when the TTL is unknown or longer than the check may wait. */
export async function expiredTicketVerdict(target: AuthBoundaryTarget): Promise<ScenarioVerdict> {
  const findings = new AuthFindings('auth.expired-refused');
  try {
    const minted = await target.tickets.mint(target.url);
    if (minted.ttlSeconds === undefined) return notApplicable('the ticket source gives no ttl_seconds (a --ticket-command): the expiry cannot be timed');
    const waitMs = Math.ceil(minted.ttlSeconds * 1000) + EXPIRY_MARGIN_MS;
    if (waitMs > target.expiryBudgetMs) return notApplicable(`the ticket TTL (${minted.ttlSeconds} s) cannot be waited out within the check's ${target.expiryBudgetMs / 1000} s budget`);
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    const outcome = await attempt(target, [minted.ticket], { query: { ticket: minted.ticket }, sendOnOpen: probeCreate(`contract-gate-auth-${nonce()}`) });
    expectRefused(findings, `a ticket presented ${waitMs} ms after it was minted (ttl_seconds ${minted.ttlSeconds})`, outcome);
    return findings.verdict(`presented ${waitMs} ms after minting (ttl ${minted.ttlSeconds} s): ${describe(outcome)}`);
  } catch (error) {
    return aborted('auth.expired-refused', 'probing the upgrade', error);
  }
}

export const legacyTokenVerdict = (target: AuthBoundaryTarget): Promise<ScenarioVerdict> =>
  run('auth.legacy-token-refused', target, async (t, findings) => {
    const token = t.legacyToken ?? `contract-gate-${nonce()}`;
    const outcome = await attempt(t, [token], { query: { token }, sendOnOpen: probeCreate(`contract-gate-auth-${nonce()}`) });
    expectRefused(findings, `the legacy ?token= (${t.legacyToken ? "the target's own token" : 'a made-up token: pass --token-env to present the real one'})`, outcome);
    return `${t.legacyToken ? "the target's own legacy token" : 'a made-up legacy token (the real one was not given)'}: ${describe(outcome)}`;
  });

export const ticketProtocolAloneVerdict = (target: AuthBoundaryTarget): Promise<ScenarioVerdict> =>
  run('auth.ticket-protocol-alone-refused', target, async (t, findings) => {
    const { ticket } = await t.tickets.mint(t.url);
    const outcome = await attempt(t, [ticket], { subprotocols: [`${TICKET_PROTOCOL_PREFIX}${ticket}`], sendOnOpen: probeCreate(`contract-gate-auth-${nonce()}`) });
    expectRefused(findings, `a fresh ticket offered as ${TICKET_PROTOCOL_PREFIX}<ticket> without ${GATEWAY_PROTOCOL}`, outcome);
    return `ticket protocol alone: ${describe(outcome)}`;
  });

export const twoTicketProtocolsVerdict = (target: AuthBoundaryTarget): Promise<ScenarioVerdict> =>
  run('auth.two-ticket-protocols-refused', target, async (t, findings) => {
    const first = (await t.tickets.mint(t.url)).ticket;
    const second = (await t.tickets.mint(t.url)).ticket;
    const subprotocols = [GATEWAY_PROTOCOL, `${TICKET_PROTOCOL_PREFIX}${first}`, `${TICKET_PROTOCOL_PREFIX}${second}`];
    const outcome = await attempt(t, [first, second], { subprotocols, sendOnOpen: probeCreate(`contract-gate-auth-${nonce()}`) });
    expectRefused(findings, 'an offer of two fresh ticket protocols', outcome);
    return `two ticket protocols: ${describe(outcome)}`;
  });

export const selectedProtocolVerdict = (target: AuthBoundaryTarget): Promise<ScenarioVerdict> =>
  run('auth.selected-protocol', target, async (t, findings) => {
    const { ticket } = await t.tickets.mint(t.url);
    const outcome = await attempt(t, [ticket], { subprotocols: [GATEWAY_PROTOCOL, `${TICKET_PROTOCOL_PREFIX}${ticket}`], settleMs: 500 });
    findings.judged(outcome);
    if (findings.expect(outcome.kind === 'open', `a fresh ticket presented as subprotocols was not accepted: ${describe(outcome)}`) && outcome.kind === 'open') {
      findings.expect(outcome.selectedProtocol === GATEWAY_PROTOCOL, `the server selected subprotocol "${outcome.selectedProtocol}", not exactly ${GATEWAY_PROTOCOL}`);
    }
    return `selected ${outcome.kind === 'open' ? outcome.selectedProtocol : '(none)'}`;
  });

export const foreignOriginVerdict = (target: AuthBoundaryTarget): Promise<ScenarioVerdict> =>
  run('auth.foreign-origin-refused', target, async (t, findings) => {
    const { ticket } = await t.tickets.mint(t.url);
    const outcome = await attempt(t, [ticket], { query: { ticket }, origin: FOREIGN_ORIGIN, sendOnOpen: probeCreate(`contract-gate-auth-${nonce()}`) });
    expectRefused(findings, `a fresh ticket from Origin ${FOREIGN_ORIGIN}`, outcome, ORIGIN_REFUSAL);
    return `Origin ${FOREIGN_ORIGIN}: ${describe(outcome)}`;
  });

/** The sessions a valid connection sees whose title is one of `markers`. */
async function sessionsTitled(connect: Connect, markers: ReadonlySet<string>): Promise<string[]> {
  const client = await connect({ name: 'auth-list' });
  try {
    const found: string[] = [];
    const live = outcomeOf(await client.call('session.active_list', {}));
    if (live.kind === 'result') for (const row of ((live.result as { sessions?: Array<{ title?: unknown; id?: unknown }> }).sessions ?? [])) if (markers.has(String(row.title))) found.push(`live session ${String(row.id)} "${String(row.title)}"`);
    for (const marker of markers) {
      const stored = outcomeOf(await client.call('session.list', { title: marker, include_hidden: true }));
      if (stored.kind === 'result') for (const row of ((stored.result as { sessions?: Array<{ title?: unknown; id?: unknown }> }).sessions ?? [])) if (row.title === marker) found.push(`stored session ${String(row.id)} "${marker}"`);
    }
    return found;
  } finally {
    await client.close();
  }
}

/** Refused attempts that each send a session.create; afterwards a valid connection must see none of those sessions. */
export const refusedReachesNoSessionVerdict = (target: AuthBoundaryTarget): Promise<ScenarioVerdict> =>
  run('auth.refused-reaches-no-session', target, async (t, findings) => {
    const foreign = await t.tickets.mint(t.url);
    const shapes: Array<{ what: string; secrets: string[]; shape: Omit<UpgradeAttempt, 'url' | 'secrets'> }> = [
      { what: 'no credential', secrets: [], shape: {} },
      { what: 'an unknown ticket', secrets: [], shape: { query: { ticket: randomBytes(32).toString('base64url') } } },
      { what: 'a foreign Origin', secrets: [foreign.ticket], shape: { query: { ticket: foreign.ticket }, origin: FOREIGN_ORIGIN } },
    ];
    const refused = new Set<string>();
    for (const { what, secrets, shape } of shapes) {
      const marker = `contract-gate-auth-${nonce()}`;
      const outcome = await attempt(t, secrets, { ...shape, sendOnOpen: probeCreate(marker) });
      findings.note(`${what}: ${describe(outcome)}`);
      if (findings.judged(outcome, CREDENTIAL_REFUSAL, ORIGIN_REFUSAL)) refused.add(marker);
    }
    if (refused.size === 0) throw new NothingRefused(shapes.map((shape) => shape.what));
    for (const session of await sessionsTitled(t.connect, refused)) findings.fail(`a refused connection's session.create reached the gateway: ${session}`);
    return `${refused.size} refused connection(s) sent session.create; a valid connection sees none of those sessions`;
  });
