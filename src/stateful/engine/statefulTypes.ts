import type * as fc from 'fast-check';
import type { JsonObject } from '../../../core/index.js';

/**
 * The vocabulary of a stateful model, independent of any contract: commands with one precondition, one run that
 * talks to a system and reports what it saw, and one pure transition of the model. A model for another contract
 * is written against these types only (the library entry point exports them).
 */

/** What one command saw on one system: the outcome class and the tracked fields (ids and timestamps normalised). */
export interface Observation {
  /** `success`, `error <code>`, `contract-rejection`, `server-error`, `no-answer`, … */
  readonly outcome: string;
  /** The fields the model tracks, already normalised (model references instead of ids, no timestamps). */
  readonly fields: JsonObject;
  /** Postconditions of the model that this answer broke (empty when it holds). */
  readonly violations: readonly string[];
  /** The answer as received, shortened, for the report. */
  readonly answer: string;
}

/** One call of a sequence as data: what a replay file stores and what a report prints. */
export interface Step {
  readonly command: string;
  readonly args: JsonObject;
}

export interface StatefulCommand<M extends object, S> {
  readonly name: string;
  /** Generated arguments; references to model objects are indexes taken modulo what the model holds. */
  readonly args: fc.Arbitrary<JsonObject>;
  /** How often the command is drawn relative to the others (default 1). */
  readonly weight?: number;
  /** The command uses directives only the reference gateway understands (`/slow`, `/request`, restarts). */
  readonly referenceOnly?: boolean;
  /** Precondition: whether the command makes sense in this model state. */
  check(model: Readonly<M>, args: JsonObject): boolean;
  /** Runs the command on one system, judging the answer against the model before the transition. Must not change the model. */
  run(model: Readonly<M>, system: S, args: JsonObject): Promise<Observation>;
  /** The model's transition: a pure function of the model and the arguments. */
  update(model: M, args: JsonObject): void;
  /** One line for a numbered call list (default: `name {args}`). */
  describe?(args: JsonObject): string;
  /** The contract methods the command calls: a model leaves out the commands whose methods its contract lacks, and coverage tables list them. */
  readonly calls?: readonly string[];
}

/** A model of one contract: its initial state, its commands, and the rules its postconditions enforce (for reports). */
export interface StatefulModel<M extends object, S> {
  readonly name: string;
  initial(): M;
  readonly commands: readonly StatefulCommand<M, S>[];
  readonly rules?: readonly ModelRule[];
}

export interface ModelRule {
  readonly id: string;
  readonly rule: string;
}

/** Opens one fresh system for one sequence and closes it afterwards (connections, sessions it left live). */
export interface SystemFactory<S> {
  open(): Promise<S>;
  close(system: S): Promise<void>;
}

/** `model`: postconditions on the target; `differential`: the target in lockstep with a reference system. */
export type StatefulMode = 'model' | 'differential';

export interface StatefulOptions {
  readonly seed: number;
  /** Sequences generated (before shrinking). */
  readonly runs: number;
  /** At most this many commands per sequence. */
  readonly maxSteps: number;
  /** Whether commands marked `referenceOnly` may be drawn. */
  readonly referenceDirectives: boolean;
  /** Stop shrinking after this long (the best sequence so far is reported). Default 60 s. */
  readonly shrinkBudgetMs?: number;
}

/** Where one step of a failing sequence went wrong. */
export interface StepFailure {
  /** 1-based index in the executed sequence. */
  readonly index: number;
  readonly step: Step;
  readonly message: string;
  readonly target: Observation | undefined;
  readonly reference: Observation | undefined;
}

export interface StatefulTimings {
  /** Commands executed in total (every run and every shrink attempt). */
  readonly commands: number;
  /** Sequences executed in total. */
  readonly sequences: number;
  /** Wall time inside the commands' `run` (requests, waits for events: the wire side; both systems at once in differential mode). */
  readonly wireMs: number;
  /** Wall time of the whole check. */
  readonly totalMs: number;
}

export interface StatefulResult {
  readonly ok: boolean;
  readonly seed: number;
  readonly mode: StatefulMode;
  /** The shrunk failing sequence (every executed call, in order), when not ok. */
  readonly steps: readonly Step[];
  readonly failure: StepFailure | undefined;
  /** The first failing sequence before shrinking, for the record. */
  readonly originalLength: number | undefined;
  readonly shrinks: number;
  readonly timings: StatefulTimings;
}
