import { join, relative } from 'node:path';
import { startGateway } from '../../../gateway/index.js';
import type { CheckId } from '../../../src/checks/checkCatalogue.js';
import { violation } from '../../../src/checks/violation.js';
import { Redactor } from '../../../src/client/redact.js';
import { buildStatefulReplayFile, writeStatefulReplayFile } from '../../../src/replay/statefulReplayFile.js';
import { describeStep } from '../../../src/stateful/engine/runStateful.js';
import type { StatefulMode, StatefulResult } from '../../../src/stateful/engine/statefulTypes.js';
import { HERMES_MODEL_METHODS, hermesSessionModel } from '../stateful/hermesSessionModel.js';
import type { ConnectClient } from '../stateful/hermesSide.js';
import { runHermesStateful } from '../stateful/hermesStateful.js';
import type { CellBody, CellFixtures, CellVerdict } from '../../../src/run/cellTypes.js';
import { runToken, type RunPlan } from '../../../src/run/runPlan.js';
import { unsupported } from './scenarioSetup.js';
import { type Target } from '../../../src/run/target.js';
import { embeddedGatewayOptions } from '../referenceGateway.js';

export const STATEFUL_SUBJECT = '(stateful)';

const CHECK_OF: Record<StatefulMode, CheckId> = { model: 'stateful.model', differential: 'stateful.differential' };

const serverRequestsOf = (plan: RunPlan): string[] => [...new Set(plan.contracts.flatMap((contract) => contract.serverRequests.map((request) => request.name)))];

/** Reference-only directives (`/slow`, `/request`) are used on the embedded gateway, or when the run allows them. */
const directivesAllowed = (plan: RunPlan, target: Target): boolean => target.kind === 'embedded' || plan.config.statefulDirectives;

/** The numbered calls of a failing sequence, its seed, and where it went wrong (both answers in differential mode). */
function counterexample(plan: RunPlan, result: StatefulResult, redactor: Redactor): string[] {
  const model = hermesSessionModel({ serverRequests: serverRequestsOf(plan) });
  const failure = result.failure;
  return [
    `seed ${result.seed}: ${result.steps.length} call(s) after ${result.shrinks} shrink step(s)${result.originalLength !== undefined ? ` (first failing sequence: ${result.originalLength} calls)` : ''}`,
    ...result.steps.map((step, index) => `${index + 1}. ${describeStep(model, step)}${failure?.index === index + 1 ? '   ← fails here' : ''}`),
    `step ${failure?.index ?? '?'}: ${redactor.redact(failure?.message ?? '')}`,
    ...(failure?.target ? [`target:    ${redactor.redact(failure.target.answer)}`] : []),
    ...(failure?.reference ? [`reference: ${redactor.redact(failure.reference.answer)}`] : []),
  ];
}

function verdictOf(plan: RunPlan, target: Target, mode: StatefulMode, result: StatefulResult): CellVerdict {
  const check = CHECK_OF[mode];
  const rate = result.timings.totalMs > 0 ? (result.timings.commands * 1000) / result.timings.totalMs : 0;
  const summary = `${result.timings.sequences} sequence(s), ${result.timings.commands} command(s) (${rate.toFixed(0)}/s), seed ${result.seed}`;
  if (result.ok) return { status: 'pass', detail: `${summary}: ${mode === 'model' ? "every step kept the model's rules" : 'target and reference agreed at every step'}`, violations: [] };
  const redactor = new Redactor([runToken(plan)]);
  const path = join(plan.config.reportDir, 'replays', `stateful--${check}.json`);
  const file = buildStatefulReplayFile({
    target: target.kind === 'external' ? redactor.redactUrl(target.url) : target.label,
    embedded: target.kind === 'embedded',
    ...(target.kind === 'embedded'
      ? {
          gateway: {
            contracts: [...plan.contracts, ...plan.extensions].map((contract) => contract.origin),
            faults: [...plan.config.faults],
            legacyMessages: plan.config.legacyMessages,
            ...(plan.config.embeddedAuth === 'gated' ? { gated: true } : {}),
          },
        }
      : {}),
    ...(plan.config.auth ? { auth: plan.config.auth } : {}),
    contracts: [...plan.contracts, ...plan.extensions].map((contract) => contract.origin),
    check,
    model: 'hermes-session',
    serverRequests: serverRequestsOf(plan),
    calls: result.steps.map((step, index) => `${index + 1}. ${describeStep(hermesSessionModel({ serverRequests: serverRequestsOf(plan) }), step)}`),
    result,
  });
  writeStatefulReplayFile(path, file);
  const failure = result.failure;
  const message = `step ${failure?.index ?? '?'} of ${result.steps.length} (${failure?.step.command ?? '?'}): ${redactor.redact(failure?.message ?? '')}`;
  return {
    status: 'fail',
    detail: `${summary}: shrunk to ${result.steps.length} call(s): ${result.steps.map((step, index) => `${index + 1}. ${step.command}${Object.keys(step.args).length > 0 ? ` ${JSON.stringify(step.args)}` : ''}`).join(' · ')}`,
    violations: [violation(check, message)],
    replayFile: relative(plan.config.reportDir, path),
    context: [...counterexample(plan, result, redactor), `replay: npx contract-gate replay ${path}`],
  };
}

/** Random call sequences of the Hermes session model against the target: postconditions, or lockstep with a fresh reference gateway. */
export function statefulCell(mode: StatefulMode): CellBody {
  return async ({ plan, target, connect }: CellFixtures) => {
    const skip = unsupported(plan, target, HERMES_MODEL_METHODS);
    if (skip) return skip;
    const options = { seed: plan.config.seed, runs: plan.config.statefulRuns, maxSteps: plan.config.statefulSteps, referenceDirectives: directivesAllowed(plan, target) };
    const connectTarget: ConnectClient = (client) => connect({ readyTimeoutMs: 2_000, ...client });
    // Extension methods (session.reset of session-hooks) only where the reference serves them: an external target
    // is run with the profile's default extensions whether or not it implements them.
    const served = target.kind === 'embedded' ? [...plan.contracts, ...plan.extensions] : plan.contracts;
    const methods = new Set(served.flatMap((contract) => contract.methods.map((method) => method.name)));
    const setup = { target: connectTarget, serverRequests: serverRequestsOf(plan), methods, requestTimeoutMs: plan.config.requestTimeoutMs };
    if (mode === 'model') return verdictOf(plan, target, mode, await runHermesStateful(setup, mode, options));
    const reference = await startGateway(embeddedGatewayOptions(plan, { faults: [] }));
    try {
      const connectReference: ConnectClient = (client) => connect({ readyTimeoutMs: 2_000, ...client, url: reference.url, name: `ref-${client.name}` });
      return verdictOf(plan, target, mode, await runHermesStateful({ ...setup, reference: connectReference }, mode, options));
    } finally {
      await reference.close();
    }
  };
}
