import { startGateway, type GatewayOptions, type RunningGateway } from '../../../gateway/index.js';
import type { Contract } from '../../../src/contracts/index.js';
import { hermesPairFor } from '../paths.js';
import type { ScenarioVerdict } from '../../../src/run/scenarioVerdict.js';
import { contractAt, type RunPlan } from '../../../src/run/runPlan.js';
import { type Target } from '../../../src/run/target.js';
import { embeddedGatewayOptions } from '../referenceGateway.js';

/** The Hermes documents the scenarios compare the target with: the twin pair of the target's own document. */
const pairOf = (plan: RunPlan) => hermesPairFor(plan.contracts[0]?.origin);

/** The desktop's contract: `--client-contract` when given (the clients in the field), else the current Hermes document. */
export function desktopContract(plan: RunPlan): Contract {
  return plan.clientContract ?? contractAt(pairOf(plan).current);
}

/**
 * The remote lane, the tolerant client and the browser page play the desktop that shipped `cwd_explicit`
 * (#52589): their payloads carry it whatever --client-contract says, so their prediction is made for that contract.
 */
export function cwdExplicitDesktopContract(plan: RunPlan): Contract {
  return contractAt(pairOf(plan).current);
}

/** The Hermes document before `cwd_explicit` existed: what a stale remote backend validates against. */
export function preCwdExplicitContract(plan: RunPlan): Contract {
  return contractAt(pairOf(plan).preCwdExplicit);
}

/** The target's own contract (the first `--contract`). */
export function targetContract(plan: RunPlan): Contract | undefined {
  return plan.contracts[0];
}

/**
 * Why a scenario cannot run against this target (n/a), or undefined when it can: the scenarios drive the Hermes
 * session lifecycle over a WebSocket, so they need a ws(s) URL and the methods they call.
 */
export function unsupported(plan: RunPlan, target: Target, methods: readonly string[]): ScenarioVerdict | undefined {
  const na = (detail: string): ScenarioVerdict => ({ status: 'n/a', detail, violations: [] });
  if (/^https?:/i.test(target.url)) return na('the scenario needs events over a WebSocket; the target is an HTTP endpoint');
  if (!/^wss?:/i.test(target.url)) return na('the scenario needs several connections to one gateway at once; the process of a stdio target serves one connection at a time');
  const missing = methods.filter((method) => !plan.contracts.some((contract) => contract.method(method)));
  if (missing.length > 0) return na(`the target's contract does not declare ${missing.join(', ')}`);
  return undefined;
}

/** Starts a reference gateway beside the target (same options as the embedded one, plus `overrides`), runs `body`, stops it. */
export async function withSiblingGateway<T>(plan: RunPlan, overrides: GatewayOptions, body: (gateway: RunningGateway) => Promise<T>): Promise<T> {
  const gateway = await startGateway(embeddedGatewayOptions(plan, overrides));
  try {
    return await body(gateway);
  } finally {
    await gateway.close();
  }
}

/** Options of a sibling reference gateway that validates against the pre-`cwd_explicit` document (a stale remote backend). */
export function preCwdExplicitOptions(plan: RunPlan): GatewayOptions {
  return { contractPaths: [pairOf(plan).preCwdExplicit, ...plan.extensions.map((extension) => extension.origin)] };
}
