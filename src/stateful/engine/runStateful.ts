import * as fc from 'fast-check';
import { jsonEqual, type JsonObject } from '../../../core/index.js';
import type { Observation, StatefulCommand, StatefulMode, StatefulModel, StatefulOptions, StatefulResult, Step, StepFailure, SystemFactory } from './statefulTypes.js';

export const DEFAULT_SHRINK_BUDGET_MS = 60_000;

/** The systems one check drives: the target, and in differential mode the reference it runs in lockstep with. */
export interface StatefulSystems<S> {
  readonly target: SystemFactory<S>;
  readonly reference?: SystemFactory<S>;
}

/** Thrown inside a sequence once every watched mode has failed: fast-check then stops running its commands. */
class SequenceStop extends Error {
  constructor() {
    super('the sequence failed');
  }
}

/** The first failing step of each mode, in one executed sequence. */
type Failures = Partial<Record<StatefulMode, StepFailure>>;

type StopWhen = 'any' | readonly StatefulMode[];

const stopped = (failures: Failures, when: StopWhen): boolean =>
  when === 'any' ? Object.values(failures).some((failure) => failure !== undefined) : when.every((mode) => failures[mode] !== undefined);

interface Live<S> {
  readonly target: S;
  readonly reference: S | undefined;
  readonly executed: Step[];
  /** The modes judged at every step. */
  readonly modes: readonly StatefulMode[];
  /** The sequence stops at the first failure of any mode, or once every one of the listed modes has failed. */
  readonly stopWhen: StopWhen;
  readonly failures: Failures;
}

class Meter {
  commands = 0;
  sequences = 0;
  wireMs = 0;

  /** Times one step (wall time, both systems at once in differential mode) that runs `sides` commands. */
  async time<T>(sides: number, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.wireMs += performance.now() - started;
      this.commands += sides;
    }
  }
}

const shownArgs = (args: JsonObject): string => (Object.keys(args).length === 0 ? '' : ` ${JSON.stringify(args)}`);

export function describeStep<M extends object, S>(model: StatefulModel<M, S>, step: Step): string {
  const command = model.commands.find((candidate) => candidate.name === step.command);
  return command?.describe ? command.describe(step.args) : `${step.command}${shownArgs(step.args)}`;
}

/** The verdict of one executed step: the model's postconditions, or agreement with the reference. */
function judge(mode: StatefulMode, index: number, step: Step, target: Observation, reference: Observation | undefined): StepFailure | undefined {
  if (mode === 'model') {
    return target.violations.length === 0 ? undefined : { index, step, message: target.violations.join('; '), target, reference: undefined };
  }
  if (!reference) return undefined;
  if (target.outcome !== reference.outcome) {
    return { index, step, message: `outcome ${target.outcome} on the target, ${reference.outcome} on the reference`, target, reference };
  }
  if (!jsonEqual(target.fields, reference.fields)) {
    const keys = [...new Set([...Object.keys(target.fields), ...Object.keys(reference.fields)])].filter((key) => !jsonEqual(target.fields[key] ?? null, reference.fields[key] ?? null));
    return { index, step, message: `tracked ${keys.length > 1 ? 'fields' : 'field'} ${keys.join(', ')} ${keys.length > 1 ? 'differ' : 'differs'}: target ${JSON.stringify(pick(target.fields, keys))}, reference ${JSON.stringify(pick(reference.fields, keys))}`, target, reference };
  }
  return undefined;
}

const pick = (fields: JsonObject, keys: readonly string[]): JsonObject => Object.fromEntries(keys.map((key) => [key, fields[key] ?? null]));

/**
 * Executes one step on the target (and the reference), applies the transition and judges the step in every mode
 * that has not failed yet; throws SequenceStop once the sequence meets `stopWhen`.
 */
async function execute<M extends object, S>(command: StatefulCommand<M, S>, args: JsonObject, model: M, live: Live<S>, meter: Meter): Promise<void> {
  const step = { command: command.name, args };
  live.executed.push(step);
  const index = live.executed.length;
  // Lockstep: both systems run the step from the same model state, at the same time; neither runs ahead by a step.
  const both = live.reference !== undefined;
  const [target, reference] = await meter.time(both ? 2 : 1, () =>
    Promise.all([command.run(model, live.target, args), both ? command.run(model, live.reference as S, args) : Promise.resolve(undefined)]),
  );
  command.update(model, args);
  for (const mode of live.modes) live.failures[mode] ??= judge(mode, index, step, target, reference);
  if (stopped(live.failures, live.stopWhen)) throw new SequenceStop();
}

/** Every mode not failed yet fails at the last executed step: the harness could not run it. */
function harnessFailure<S>(live: Live<S>, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  const last = live.executed[live.executed.length - 1];
  const failure: StepFailure = { index: live.executed.length, step: last ?? { command: '(setup)', args: {} }, message: `the harness could not run the step: ${message}`, target: undefined, reference: undefined };
  for (const mode of live.modes) live.failures[mode] ??= failure;
}

class ModelCommand<M extends object, S> implements fc.AsyncCommand<M, Live<S>> {
  constructor(
    private readonly command: StatefulCommand<M, S>,
    private readonly args: JsonObject,
    private readonly meter: Meter,
    private readonly shown: string,
  ) {}

  check(model: Readonly<M>): boolean {
    return this.command.check(model, this.args);
  }

  run(model: M, live: Live<S>): Promise<void> {
    return execute(this.command, this.args, model, live, this.meter);
  }

  toString(): string {
    return this.shown;
  }
}

/** What one sequence did: the steps it executed and the first failure of each judged mode. */
interface SequenceOutcome {
  readonly executed: Step[];
  readonly failures: Failures;
}

/**
 * Opens fresh systems for one sequence and runs it. A step the harness could not run (a lost connection) fails the
 * modes not failed yet when `harnessErrors` is `fail` (a generated sequence); `throw` rethrows it (a replay).
 */
async function withSystems<S>(
  systems: StatefulSystems<S>,
  modes: readonly StatefulMode[],
  stopWhen: StopWhen,
  harnessErrors: 'fail' | 'throw',
  body: (live: Live<S>) => Promise<void>,
): Promise<SequenceOutcome> {
  const target = await systems.target.open();
  let reference: S | undefined;
  try {
    if (modes.includes('differential')) {
      if (!systems.reference) throw new Error('a differential check needs a reference system');
      reference = await systems.reference.open();
    }
    const live: Live<S> = { target, reference, executed: [], modes, stopWhen, failures: {} };
    try {
      await body(live);
    } catch (error) {
      if (!(error instanceof SequenceStop)) {
        if (harnessErrors === 'throw') throw error;
        harnessFailure(live, error);
      }
    }
    return { executed: [...live.executed], failures: { ...live.failures } };
  } finally {
    await systems.target.close(target).catch(() => undefined);
    if (reference !== undefined) await systems.reference?.close(reference).catch(() => undefined);
  }
}

/**
 * Runs random command sequences of `model` (fast-check `fc.commands` + `fc.asyncModelRun`) against the systems and
 * shrinks the first failing one to the shortest sequence that still fails (within the shrink budget).
 */
export async function runStateful<M extends object, S>(model: StatefulModel<M, S>, systems: StatefulSystems<S>, mode: StatefulMode, options: StatefulOptions): Promise<StatefulResult> {
  const search = await searchModes(model, systems, [mode], options);
  return resultOf(search, mode, options.seed);
}

/**
 * Both modes from one search: every sequence runs in lockstep on the target and the reference, each step judged
 * against the model and against the reference, and stops at the first failure, as each mode's own search would.
 * The modes that fail at that step are shrunk together (a candidate is kept while it fails in all of them), each
 * reporting the shrunk sequence up to its own failing step; where one mode fails alone, that is exactly its own
 * search. A mode that held at that step is then searched on its own, as `runStateful` does.
 */
export async function runStatefulBoth<M extends object, S>(model: StatefulModel<M, S>, systems: StatefulSystems<S>, options: StatefulOptions): Promise<Record<StatefulMode, StatefulResult>> {
  const both = await searchModes(model, systems, ['model', 'differential'], options);
  const result = async (mode: StatefulMode): Promise<StatefulResult> =>
    both.found === undefined || both.failed.includes(mode) ? resultOf(both, mode, options.seed) : runStateful(model, systems, mode, options);
  return { model: await result('model'), differential: await result('differential') };
}

interface Search {
  /** The shrunk failing sequence. */
  readonly found: SequenceOutcome | undefined;
  /** The modes the first failing sequence failed in: the found sequence fails in each of them. */
  readonly failed: readonly StatefulMode[];
  /** Where each mode failed in the first failing sequence, before shrinking (its index is that sequence's length). */
  readonly firstFailures: Failures;
  readonly failures: number;
  readonly timings: StatefulResult['timings'];
}

function resultOf(search: Search, mode: StatefulMode, seed: number): StatefulResult {
  const failure = search.failed.includes(mode) ? search.found?.failures[mode] : undefined;
  return {
    ok: failure === undefined,
    seed,
    mode,
    steps: failure && search.found ? search.found.executed.slice(0, failure.index) : [],
    failure,
    originalLength: search.firstFailures[mode]?.index,
    shrinks: Math.max(0, search.failures - 1),
    timings: search.timings,
  };
}

/**
 * The search: a sequence fails when any judged mode fails, and stops there; from the first failing sequence on,
 * shrinking keeps a candidate only when it fails in every mode that first one failed in.
 */
async function searchModes<M extends object, S>(model: StatefulModel<M, S>, systems: StatefulSystems<S>, modes: readonly StatefulMode[], options: StatefulOptions): Promise<Search> {
  const started = performance.now();
  const meter = new Meter();
  const usable = model.commands.filter((command) => options.referenceDirectives || !command.referenceOnly);
  const arbitraries = usable.flatMap((command) =>
    Array.from({ length: command.weight ?? 1 }, () => command.args.map((args) => new ModelCommand(command, args, meter, describeStep(model, { command: command.name, args })))),
  );
  let found: SequenceOutcome | undefined;
  let required: readonly StatefulMode[] | undefined;
  let firstFailures: Failures = {};
  let failures = 0;
  const budget = options.shrinkBudgetMs ?? DEFAULT_SHRINK_BUDGET_MS;
  let firstFailureAt: number | undefined;
  const property = fc.asyncProperty(fc.commands(arbitraries, { maxCommands: options.maxSteps, size: 'max' }), async (commands) => {
    // Past the shrink budget every candidate "passes" untried, so fast-check stops with the best sequence so far.
    if (firstFailureAt !== undefined && performance.now() - firstFailureAt > budget) return;
    meter.sequences += 1;
    const outcome = await withSystems(systems, modes, required ?? 'any', 'fail', (live) => fc.asyncModelRun(() => ({ model: model.initial(), real: live }), commands));
    const failed = modes.filter((mode) => outcome.failures[mode] !== undefined);
    if (required === undefined ? failed.length === 0 : !stopped(outcome.failures, required)) return;
    if (required === undefined) {
      required = failed;
      firstFailures = outcome.failures;
      firstFailureAt = performance.now();
    }
    found = outcome;
    failures += 1;
    throw new SequenceStop();
  });
  await fc.check(property, { seed: options.seed, numRuns: options.runs, endOnFailure: false });
  if (found && required && firstFailureAt !== undefined) {
    const polished = await dropSingleSteps(model, systems, modes, required, found, firstFailureAt + budget + DROP_PASS_MS, meter);
    failures += polished.removed;
    found = polished.found;
  }
  return { found, failed: required ?? [], firstFailures, failures, timings: { commands: meter.commands, sequences: meter.sequences, wireMs: meter.wireMs, totalMs: performance.now() - started } };
}

/** Extra time after the shrink budget for the single-step pass. */
const DROP_PASS_MS = 20_000;

/**
 * After fast-check's shrinking, tries the sequence without each single step in turn and keeps every removal that
 * still fails in every required mode (fast-check removes runs of commands; a step whose index arguments now point
 * elsewhere can survive it).
 */
async function dropSingleSteps<M extends object, S>(
  model: StatefulModel<M, S>,
  systems: StatefulSystems<S>,
  modes: readonly StatefulMode[],
  required: readonly StatefulMode[],
  found: SequenceOutcome,
  deadline: number,
  meter: Meter,
): Promise<{ found: SequenceOutcome; removed: number }> {
  let current = found;
  let removed = 0;
  for (let index = current.executed.length - 2; index >= 0 && performance.now() < deadline; index--) {
    const candidate = current.executed.filter((_, i) => i !== index);
    meter.sequences += 1;
    const again = await replayWith(model, systems, modes, required, candidate, meter).catch(() => undefined);
    if (again && stopped(again.failures, required)) {
      current = again;
      removed += 1;
      index = Math.min(index, current.executed.length - 1);
    }
  }
  return { found: current, removed };
}

/**
 * Runs one recorded sequence again, in order (a step whose precondition no longer holds is skipped, as fast-check
 * skips it), and returns the first failing step or undefined.
 */
export async function replayStateful<M extends object, S>(model: StatefulModel<M, S>, systems: StatefulSystems<S>, mode: StatefulMode, steps: readonly Step[]): Promise<{ failure: StepFailure | undefined; executed: Step[] }> {
  const outcome = await replayWith(model, systems, [mode], [mode], steps, new Meter());
  return { failure: outcome.failures[mode], executed: outcome.executed };
}

async function replayWith<M extends object, S>(model: StatefulModel<M, S>, systems: StatefulSystems<S>, modes: readonly StatefulMode[], stopWhen: StopWhen, steps: readonly Step[], meter: Meter): Promise<SequenceOutcome> {
  const commands = steps.map((step) => {
    const command = model.commands.find((candidate) => candidate.name === step.command);
    if (!command) throw new Error(`the model ${model.name} has no command ${step.command}`);
    return command;
  });
  return withSystems(systems, modes, stopWhen, 'throw', async (live) => {
    const state = model.initial();
    for (const [index, step] of steps.entries()) {
      const command = commands[index]!;
      if (!command.check(state, step.args)) continue;
      await execute(command, step.args, state, live, meter);
    }
  });
}
