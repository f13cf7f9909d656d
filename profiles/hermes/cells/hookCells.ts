import {
  buildFailureVerdict,
  cleanupExceptionVerdict,
  HookPayloadCheck,
  type HookScenarioContext,
  type HookVerdict,
  normalCloseVerdict,
  onceVerdict,
  resetVerdict,
} from '../scenarios/hooks.js';
import type { CellBody, CellFixtures } from '../../../src/run/cellTypes.js';
import { unsupported } from './scenarioSetup.js';
import type { RunPlan } from '../../../src/run/runPlan.js';

type Fixtures = CellFixtures;

const checks = new WeakMap<RunPlan, HookPayloadCheck | undefined>();

/** The payload check of the loaded document that declares `session.hook` (compiled once per plan). */
function payloadCheck(plan: RunPlan): HookPayloadCheck | undefined {
  if (!checks.has(plan)) checks.set(plan, HookPayloadCheck.fromContracts([...plan.extensions, ...plan.contracts]));
  return checks.get(plan);
}

function scenarioContext({ plan, connect }: Fixtures): HookScenarioContext {
  return { connect: (options) => connect(options), check: payloadCheck(plan) };
}

/** n/a where the scenarios cannot run (an HTTP target sends no events; a stdio target's process serves one connection at a time). */
const cell =
  (verdict: (context: HookScenarioContext) => Promise<HookVerdict>): CellBody =>
  async (fixtures) =>
    unsupported(fixtures.plan, fixtures.target, []) ?? verdict(scenarioContext(fixtures));

export const hookCleanupExceptionCell = cell(cleanupExceptionVerdict);
export const hookNormalCloseCell = cell(normalCloseVerdict);
export const hookResetCell = cell(resetVerdict);
export const hookBuildFailureCell = cell(buildFailureVerdict);
export const hookOnceCell = cell(onceVerdict);
