import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { startGateway } from '../../../gateway/index.js';
import type { CheckId } from '../../../src/checks/checkCatalogue.js';
import { violation } from '../../../src/checks/violation.js';
import { addEvidence, type Evidence } from '../../../src/checks/evidence.js';
import { Redactor } from '../../../src/client/redact.js';
import type { Transcript } from '../../../src/client/transcript.js';
import { transcriptEvidence } from '../../../src/run/transcriptEvidence.js';
import { buildStatefulReplayFile, writeStatefulReplayFile } from '../../../src/replay/statefulReplayFile.js';
import { describeStep } from '../../../src/stateful/engine/runStateful.js';
import type { StatefulMode, StatefulResult } from '../../../src/stateful/engine/statefulTypes.js';
import { HERMES_MODEL_METHODS, hermesSessionModel } from '../stateful/hermesSessionModel.js';
import type { ConnectClient } from '../stateful/hermesSide.js';
import { runHermesStateful, runHermesStatefulBoth } from '../stateful/hermesStateful.js';
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
  const evidence = { sequencesRun: result.timings.sequences };
  if (result.ok) return { status: 'pass', detail: `${summary}: ${mode === 'model' ? "every step kept the model's rules" : 'target and reference agreed at every step'}`, violations: [], evidence };
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
    evidence,
    replayFile: relative(plan.config.reportDir, path),
    context: [...counterexample(plan, result, redactor), `replay: npx contract-gate replay ${path}`],
  };
}

/** The reference gateway's connections are named with this prefix in the cell's transcript. */
const REFERENCE_PREFIX = 'ref-';

/** Both stateful checks of a run from one search (`runStatefulBoth`), and what each one's connections saw. */
interface BothResults {
  /** The run's `startedAt`: a record left in a reused report folder by an earlier run is never taken. */
  readonly run: number | undefined;
  /** The check whose cell ran the search. */
  readonly by: StatefulMode;
  readonly results: Record<StatefulMode, StatefulResult>;
  readonly evidence: Record<StatefulMode, Evidence>;
}

/** A run's shared search, and the checks that have taken their result (a second take is a retry: it runs afresh). */
interface SharedSearch {
  readonly search: Promise<BothResults | undefined>;
  readonly taken: Set<StatefulMode>;
}

/** Per run: one process may hold several runs (the in-process runner), and a run's cells may share a process. */
const shared = new Map<string, SharedSearch>();

const sharedFile = (plan: RunPlan): string => join(plan.workDir, 'stateful-both.json');

const sharedKey = (plan: RunPlan): string => `${sharedFile(plan)}\u0000${plan.config.startedAt}`;

/**
 * Both checks share one search when the run selects both: they run one after the other in one worker (`together`),
 * the first one searching and recording, the second judging the record (from memory, or from the run's folder when
 * the first one's failure moved it to a fresh worker). A check that finds no record searches on its own.
 */
function bothSelected(plan: RunPlan): boolean {
  const checks = plan.profile.cells(plan).filter((cell) => cell.subject === STATEFUL_SUBJECT && plan.isSelected(cell));
  return Object.values(CHECK_OF).every((check) => checks.some((cell) => cell.check === check));
}

/** The shared search's result for `mode`, if another cell of the run recorded one this check has not taken yet. */
function takeShared(plan: RunPlan, mode: StatefulMode): Promise<BothResults | undefined> | undefined {
  let entry = shared.get(sharedKey(plan));
  if (entry === undefined && plan.config.startedAt !== undefined && existsSync(sharedFile(plan))) {
    const recorded = JSON.parse(readFileSync(sharedFile(plan), 'utf8')) as BothResults;
    if (recorded.run === plan.config.startedAt) {
      entry = { search: Promise.resolve(recorded), taken: new Set() };
      shared.set(sharedKey(plan), entry);
    }
  }
  if (entry === undefined || entry.taken.has(mode)) return undefined;
  entry.taken.add(mode);
  return entry.search;
}

/** What the transcript shows each check judged: the model the target's frames, the lockstep both systems'. */
function evidenceOf(transcript: Transcript): Record<StatefulMode, Evidence> {
  const ofTarget = transcriptEvidence(transcript.entries.filter((entry) => !entry.conn.startsWith(REFERENCE_PREFIX)));
  const ofReference = transcriptEvidence(transcript.entries.filter((entry) => entry.conn.startsWith(REFERENCE_PREFIX)));
  return { model: ofTarget, differential: addEvidence(ofTarget, ofReference) };
}

/** Random call sequences of the Hermes session model against the target: postconditions, or lockstep with a fresh reference gateway. */
export function statefulCell(mode: StatefulMode): CellBody {
  return async ({ plan, target, connect, transcript }: CellFixtures) => {
    const skip = unsupported(plan, target, HERMES_MODEL_METHODS);
    if (skip) return skip;
    const options = { seed: plan.config.seed, runs: plan.config.statefulRuns, maxSteps: plan.config.statefulSteps, referenceDirectives: directivesAllowed(plan, target) };
    const connectTarget: ConnectClient = (client) => connect({ readyTimeoutMs: 2_000, ...client });
    // Extension methods (session.reset of session-hooks) only where the reference serves them: an external target
    // is run with the profile's default extensions whether or not it implements them.
    const served = target.kind === 'embedded' ? [...plan.contracts, ...plan.extensions] : plan.contracts;
    const methods = new Set(served.flatMap((contract) => contract.methods.map((method) => method.name)));
    const setup = { target: connectTarget, serverRequests: serverRequestsOf(plan), methods, requestTimeoutMs: plan.config.requestTimeoutMs };
    const withReference = async <T>(body: (reference: ConnectClient) => Promise<T>): Promise<T> => {
      const reference = await startGateway(embeddedGatewayOptions(plan, { faults: [] }));
      try {
        return await body((client) => connect({ readyTimeoutMs: 2_000, ...client, url: reference.url, name: `${REFERENCE_PREFIX}${client.name}` }));
      } finally {
        await reference.close();
      }
    };
    // The first check's cell saw every frame of the shared search: each check claims what its own mode judged.
    const judged = (both: BothResults): CellVerdict => {
      const verdict = verdictOf(plan, target, mode, both.results[mode]);
      const taker = both.by === mode ? ' (one search for both checks, every step in lockstep with the reference)' : ` (judged on the search the ${CHECK_OF[both.by]} cell ran for both checks)`;
      return { ...verdict, detail: `${verdict.detail}${taker}`, evidence: { ...both.evidence[mode], ...verdict.evidence } };
    };
    if (bothSelected(plan)) {
      // Decided before the first await: in one process the other check's cell may start in between.
      const taken = takeShared(plan, mode);
      if (taken) {
        const recorded = await taken;
        if (recorded) return judged(recorded);
      } else if (!shared.has(sharedKey(plan))) {
        const search = withReference((reference) => runHermesStatefulBoth({ ...setup, reference }, options)).then((results) => {
          const both: BothResults = { run: plan.config.startedAt, by: mode, results, evidence: evidenceOf(transcript) };
          mkdirSync(plan.workDir, { recursive: true });
          writeFileSync(sharedFile(plan), JSON.stringify(both));
          return both;
        });
        shared.set(sharedKey(plan), { search: search.catch(() => undefined), taken: new Set([mode]) });
        return judged(await search);
      }
    }
    if (mode === 'model') return verdictOf(plan, target, mode, await runHermesStateful(setup, mode, options));
    return verdictOf(plan, target, mode, await withReference((reference) => runHermesStateful({ ...setup, reference }, mode, options)));
  };
}
