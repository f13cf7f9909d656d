import { connectionAuthFrom, ticketLoginOf } from '../client/authSettings.js';
import type { ConnectionAuth, TicketSource } from '../client/connectionAuth.js';
import { isHttpTarget, tokenInUrl } from '../client/targetUrl.js';
import { HarnessError } from '../../core/index.js';
import type { GatewayPlacement } from '../config/parallelism.js';
import { targetIsGated } from '../config/runConfig.js';
import type { EmbeddedGateway } from '../profile/referenceGateway.js';
import { runToken, type RunPlan } from './runPlan.js';

/** The gateway under test: an external URL, or the profile's reference gateway embedded in this worker. */
export interface Target {
  kind: 'embedded' | 'external';
  url: string;
  /** JSON-RPC over HTTP endpoint when known (embedded: /api/rpc). */
  httpUrl: string | undefined;
  /** The legacy token, when the run has one (in gated mode only the auth checks present it). */
  token: string | undefined;
  /** How every connection to the target (and to its sibling reference gateways) authenticates. */
  auth: ConnectionAuth;
  /** Whether the target runs gated (tickets or the internal credential instead of the token). */
  gated: boolean;
  /** Where fresh tickets come from in ticket mode (the auth checks mint their own). */
  tickets: TicketSource | undefined;
  label: string;
  /** Present for embedded targets only: lets reference-only scenarios restart it or start siblings. */
  gateway: EmbeddedGateway | undefined;
}

/** The run's auth: one ticket source shared by the connections and the auth checks. */
function targetAuth(plan: RunPlan, token: string | undefined): Pick<Target, 'auth' | 'gated' | 'tickets'> {
  const settings = plan.config.auth ?? { mode: 'token' as const };
  if (settings.mode === 'ticket') {
    const auth = ticketLoginOf(plan.profile.auth, plan.profile.name);
    const tickets = auth.ticketSource(settings.login);
    return { auth: auth.ticketAuth(tickets, settings.via), gated: true, tickets };
  }
  return { auth: connectionAuthFrom(settings, token, plan.profile), gated: targetIsGated(plan.config), tickets: undefined };
}

export async function openTarget(plan: RunPlan, placement: GatewayPlacement = 'this-process'): Promise<Target> {
  const { target } = plan.config;
  if (target.kind === 'external') {
    const token = runToken(plan) ?? tokenInUrl(target.url);
    return { kind: 'external', url: target.url, httpUrl: isHttpTarget(target.url) ? target.url : undefined, token, ...targetAuth(plan, token), label: target.label, gateway: undefined };
  }
  const reference = plan.profile.referenceGateway;
  if (!reference) throw new HarnessError('USAGE', `the ${plan.profile.name} profile embeds no reference gateway: pass --target`);
  const gateway = await reference.start(plan, placement);
  const token = runToken(plan);
  return { kind: 'embedded', url: gateway.url, httpUrl: gateway.httpUrl, token, ...targetAuth(plan, token), label: target.label, gateway };
}

/** The target, or why it could not be opened: the setup stage records the reason instead of failing. */
export type TargetAttempt = { target: Target } | { error: string };

export function attemptTarget(plan: RunPlan, placement?: GatewayPlacement): Promise<TargetAttempt> {
  return openTarget(plan, placement).then(
    (target): TargetAttempt => ({ target }),
    (error: unknown): TargetAttempt => ({ error: `the target could not be opened: ${error instanceof Error ? error.message : String(error)}` }),
  );
}
