import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertFaultNames, startGateway, type GatewayOptions, type RunningGateway } from '../../gateway/index.js';
import { startHostedGateway } from '../../gateway/host/hostedGateway.js';
import { HarnessError } from '../../core/index.js';
import { validatorStore } from '../../core/validatorCache.js';
import { secretFromEnv } from '../../src/client/authSettings.js';
import { DIST_ROOT } from '../../src/config/packagePaths.js';
import type { ReferenceGateway } from '../../src/profile/referenceGateway.js';
import type { RpcClient } from '../../src/client/rpcClient.js';
import { runToken, type RunPlan } from '../../src/run/runPlan.js';
import { closeQuietly, createSession, runTurn, waitBuilt } from './scenarios/sessionDriver.js';

/**
 * The project's reference gateway (gateway/) as the embedded target of a run: it serves any OpenRPC document
 * (methods without a handler get the schema-driven responder) and is an independent oracle of the harness.
 */

/**
 * How long the embedded gateway's fake agent takes to build a session: no time. The gateway's default (50 ms) stands
 * for a real agent; here every setup that needs a built session would wait for it (session.close, delete, undo and
 * resume bind a fresh built session per call). Without a delay the build runs right after the reply is sent, so the
 * order a real gateway shows (reply first, then session.info) holds, and both leave in one socket write. Failed builds
 * come from the session's model, not from the delay, and stay as they were; the self-test still sees every fault fail
 * its cells. The gateway's unit tests and `contract-gate serve` keep its default.
 */
export const EMBEDDED_BUILD_DELAY_MS = 0;

/** The embedded gated gateway's ticket TTL: short, so that the expiry check can wait it out. */
export const EMBEDDED_TICKET_TTL_MS = 3_000;

/** Gated mode of an embedded gateway: the basic account the run logs in with (from the environment). */
function embeddedGatedOptions(plan: RunPlan): Pick<GatewayOptions, 'auth'> {
  const { auth } = plan.config;
  if (plan.config.embeddedAuth !== 'gated') return {};
  if (auth?.mode === 'ticket' && auth.login.kind === 'basic') {
    return { auth: { basicUser: auth.login.user, basicPassword: secretFromEnv(auth.login.passwordEnv, '--password-env'), ticketTtlMs: EMBEDDED_TICKET_TTL_MS } };
  }
  throw new HarnessError('USAGE', 'the embedded gateway runs gated only with --auth ticket --login basic');
}

/** Options of the embedded gateway for a plan (also used by scenarios that start their own reference gateways). */
export function embeddedGatewayOptions(plan: RunPlan, overrides: GatewayOptions = {}): GatewayOptions {
  const token = runToken(plan);
  return {
    contractPaths: [...plan.contracts, ...plan.extensions].map((contract) => contract.origin),
    seed: plan.config.seed,
    buildDelayMs: EMBEDDED_BUILD_DELAY_MS,
    legacyMessages: plan.config.legacyMessages,
    ...(token ? { token } : {}),
    ...embeddedGatedOptions(plan),
    ...(plan.config.faults.length > 0 ? { faults: [...plan.config.faults] } : {}),
    // Its validators come from the harness's validator cache when an earlier process compiled them.
    validatorStore,
    ...overrides,
  };
}

/**
 * The entry of the process that hosts embedded gateways (profiles/hermes/cachedGatewayHost.ts): beside this module
 * when it is compiled (the package's `dist/`, or the CLI's bundle, which has an entry of that name), else the
 * compiled package's.
 */
function cachedHostEntry(): string {
  const beside = fileURLToPath(new URL('./cachedGatewayHost.js', import.meta.url));
  return existsSync(beside) ? beside : join(DIST_ROOT, 'profiles', 'hermes', 'cachedGatewayHost.js');
}

/** What a scenario may do to the embedded gateway beyond connecting to it, wherever it runs. */
export type RestartableGateway = Pick<RunningGateway, 'restart'>;

const started = new WeakSet<object>();

/** The embedded gateway of a target, when the reference gateway started it (scenarios that restart it need it). */
export function referenceGatewayOf(gateway: object | undefined): RestartableGateway | undefined {
  return gateway !== undefined && started.has(gateway) ? (gateway as RestartableGateway) : undefined;
}

/** Parallel sessions that `/emit` the event types the drivers did not provoke. */
const EMIT_SESSIONS = 4;

/**
 * The reference gateway can emit any declared event on request (`/emit <type>`): every declared type the
 * lifecycle drivers did not provoke is emitted once, so each event cell judges a real payload. Real gateways
 * only show what their drivers provoke.
 */
async function emitUnseen(plan: RunPlan, client: RpcClient, unseen: readonly string[]): Promise<string[]> {
  const createdHere: string[] = [];
  if (unseen.length === 0 || !plan.contracts.some((contract) => contract.method('prompt.submit'))) return createdHere;
  const lanes = Array.from({ length: Math.min(EMIT_SESSIONS, unseen.length) }, (_, lane) => unseen.filter((_, index) => index % EMIT_SESSIONS === lane));
  await Promise.all(
    lanes.map(async (types) => {
      const { sessionId } = await createSession(client, {});
      createdHere.push(sessionId);
      await waitBuilt(client, sessionId);
      for (const type of types) await runTurn(client, sessionId, `/emit ${type}`);
      await closeQuietly(client, sessionId);
    }),
  );
  return createdHere;
}


export const REFERENCE_GATEWAY: ReferenceGateway = {
  label: 'embedded reference gateway',
  assertFaults(names) {
    try {
      assertFaultNames([...names]);
    } catch (error) {
      throw new HarnessError('USAGE', `--fault: ${(error as Error).message}`);
    }
  },
  async start(plan, placement = 'this-process') {
    const options = embeddedGatewayOptions(plan);
    const { log: _log, strict: _strict, plugins: _plugins, validatorStore: _store, ...hosted } = options;
    const gateway = placement === 'child-process' ? await startHostedGateway(hosted, cachedHostEntry()) : await startGateway(options);
    started.add(gateway);
    return gateway;
  },
  emitUnseenEvents: emitUnseen,
};
