import * as fc from 'fast-check';
import { jsonEqual, type JsonObject } from '../../../core/index.js';
import type { Observation, StatefulCommand, StatefulMode, StatefulModel, StatefulOptions, StatefulResult, Step, StepFailure, SystemFactory } from './statefulTypes.js';

export const DEFAULT_SHRINK_BUDGET_MS = 60_000;

/** The systems one check drives: the target, and in differential mode the reference it runs in lockstep with. */
export interface StatefulSystems<S> {
  readonly target: SystemFactory<S>;
  readonly reference?: SystemFactory<S>;
}

class SequenceFailure extends Error {
  constructor(readonly failure: StepFailure) {
    super(failure.message);
  }
}

interface Live<S> {
  readonly target: S;
  readonly reference: S | undefined;
  readonly executed: Step[];
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

/** Executes one step on the target (and the reference), applies the transition, throws on a failed verdict. */
async function execute<M extends object, S>(command: StatefulCommand<M, S>, args: JsonObject, model: M, live: Live<S>, mode: StatefulMode, meter: Meter): Promise<void> {
  const step = { command: command.name, args };
  live.executed.push(step);
  const index = live.executed.length;
  // Lockstep: both systems run the step from the same model state, at the same time; neither runs ahead by a step.
  const both = mode === 'differential' && live.reference !== undefined;
  const [target, reference] = await meter.time(both ? 2 : 1, () =>
    Promise.all([command.run(model, live.target, args), both ? command.run(model, live.reference as S, args) : Promise.resolve(undefined)]),
  );
  command.update(model, args);
  const failure = judge(mode, index, step, target, reference);
  if (failure) throw new SequenceFailure(failure);
}

class ModelCommand<M extends object, S> implements fc.AsyncCommand<M, Live<S>> {
  constructor(
    private readonly command: StatefulCommand<M, S>,
    private readonly args: JsonObject,
    private readonly mode: StatefulMode,
    private readonly meter: Meter,
    private readonly shown: string,
  ) {}

  check(model: Readonly<M>): boolean {
    return this.command.check(model, this.args);
  }

  run(model: M, live: Live<S>): Promise<void> {
    return execute(this.command, this.args, model, live, this.mode, this.meter);
  }

  toString(): string {
    return this.shown;
  }
}

async function withSystems<S, T>(systems: StatefulSystems<S>, mode: StatefulMode, body: (live: Live<S>) => Promise<T>): Promise<T> {
  const target = await systems.target.open();
  let reference: S | undefined;
  try {
    if (mode === 'differential') {
      if (!systems.reference) throw new Error('a differential check needs a reference system');
      reference = await systems.reference.open();
    }
    return await body({ target, reference, executed: [] });
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
  const started = performance.now();
  const meter = new Meter();
  const usable = model.commands.filter((command) => options.referenceDirectives || !command.referenceOnly);
  const arbitraries = usable.flatMap((command) =>
    Array.from({ length: command.weight ?? 1 }, () => command.args.map((args) => new ModelCommand(command, args, mode, meter, describeStep(model, { command: command.name, args })))),
  );
  let failing: { steps: Step[]; failure: StepFailure } | undefined;
  let originalLength: number | undefined;
  let failures = 0;
  const budget = options.shrinkBudgetMs ?? DEFAULT_SHRINK_BUDGET_MS;
  let firstFailureAt: number | undefined;
  const property = fc.asyncProperty(fc.commands(arbitraries, { maxCommands: options.maxSteps, size: 'max' }), async (commands) => {
    // Past the shrink budget every candidate "passes" untried, so fast-check stops with the best sequence so far.
    if (firstFailureAt !== undefined && performance.now() - firstFailureAt > budget) return;
    meter.sequences += 1;
    await withSystems(systems, mode, async (live) => {
      try {
        await fc.asyncModelRun(() => ({ model: model.initial(), real: live }), commands);
      } catch (error) {
        if (!(error instanceof SequenceFailure)) {
          const message = error instanceof Error ? error.message : String(error);
          const last = live.executed[live.executed.length - 1];
          failing = { steps: [...live.executed], failure: { index: live.executed.length, step: last ?? { command: '(setup)', args: {} }, message: `the harness could not run the step: ${message}`, target: undefined, reference: undefined } };
        } else {
          failing = { steps: [...live.executed], failure: error.failure };
        }
        failures += 1;
        if (firstFailureAt === undefined) {
          firstFailureAt = performance.now();
          originalLength = live.executed.length;
        }
        throw error;
      }
    });
  });
  await fc.check(property, { seed: options.seed, numRuns: options.runs, endOnFailure: false });
  let found = failing as { steps: Step[]; failure: StepFailure } | undefined;
  if (found && firstFailureAt !== undefined) {
    const polished = await dropSingleSteps(model, systems, mode, found, firstFailureAt + budget + DROP_PASS_MS, meter);
    failures += polished.removed;
    found = polished.found;
  }
  const timings = { commands: meter.commands, sequences: meter.sequences, wireMs: meter.wireMs, totalMs: performance.now() - started };
  return {
    ok: found === undefined,
    seed: options.seed,
    mode,
    steps: found?.steps ?? [],
    failure: found?.failure,
    originalLength,
    shrinks: Math.max(0, failures - 1),
    timings,
  };
}

/** Extra time after the shrink budget for the single-step pass. */
const DROP_PASS_MS = 20_000;

/**
 * After fast-check's shrinking, tries the sequence without each single step in turn and keeps every removal that
 * still fails (fast-check removes runs of commands; a step whose index arguments now point elsewhere can survive it).
 */
async function dropSingleSteps<M extends object, S>(
  model: StatefulModel<M, S>,
  systems: StatefulSystems<S>,
  mode: StatefulMode,
  found: { steps: Step[]; failure: StepFailure },
  deadline: number,
  meter: Meter,
): Promise<{ found: { steps: Step[]; failure: StepFailure }; removed: number }> {
  let current = found;
  let removed = 0;
  for (let index = current.steps.length - 2; index >= 0 && performance.now() < deadline; index--) {
    const candidate = current.steps.filter((_, i) => i !== index);
    meter.sequences += 1;
    const again = await replayWith(model, systems, mode, candidate, meter).catch(() => undefined);
    if (again?.failure) {
      current = { steps: again.executed, failure: again.failure };
      removed += 1;
      index = Math.min(index, current.steps.length - 1);
    }
  }
  return { found: current, removed };
}

/**
 * Runs one recorded sequence again, in order (a step whose precondition no longer holds is skipped, as fast-check
 * skips it), and returns the first failing step or undefined.
 */
export function replayStateful<M extends object, S>(model: StatefulModel<M, S>, systems: StatefulSystems<S>, mode: StatefulMode, steps: readonly Step[]): Promise<{ failure: StepFailure | undefined; executed: Step[] }> {
  return replayWith(model, systems, mode, steps, new Meter());
}

async function replayWith<M extends object, S>(model: StatefulModel<M, S>, systems: StatefulSystems<S>, mode: StatefulMode, steps: readonly Step[], meter: Meter): Promise<{ failure: StepFailure | undefined; executed: Step[] }> {
  return withSystems(systems, mode, async (live) => {
    const state = model.initial();
    for (const step of steps) {
      const command = model.commands.find((candidate) => candidate.name === step.command);
      if (!command) throw new Error(`the model ${model.name} has no command ${step.command}`);
      if (!command.check(state, step.args)) continue;
      try {
        await execute(command, step.args, state, live, mode, meter);
      } catch (error) {
        if (error instanceof SequenceFailure) return { failure: error.failure, executed: [...live.executed] };
        throw error;
      }
    }
    return { failure: undefined, executed: [...live.executed] };
  });
}
