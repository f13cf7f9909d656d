import * as fc from 'fast-check';
import { arbitraryFromSchema, type SchemaMemo, UnsatisfiableSchemaError } from '../../fuzz/index.js';
import type { ContractMethod } from '../contracts/contractModel.js';
import { jsonEqual, type JsonValue, type SchemaResolver } from '../../core/index.js';
import type { SchemaCheck } from '../contracts/schemaValidators.js';
import type { CaseSender } from './caseSender.js';
import { longStringVariant } from './longStrings.js';
import type { MethodBases } from './methodBases.js';
import type { CaseRecord, Counterexample } from './methodRunTypes.js';

export interface ValidPhaseOptions {
  method: ContractMethod;
  resolver: SchemaResolver;
  validateParams: SchemaCheck;
  sender: CaseSender;
  seed: number;
  runs: number;
  timeLimitMs: number;
  bases: MethodBases;
  /** Expansions shared with the other walks of this method run. */
  memo?: SchemaMemo;
  /** Run the fixed examples only; the generated cases come with `extend` (a time budget measures first). */
  examplesOnly?: boolean;
  /** Told after each valid case ends, with the cases made so far (examples included): the run's progress estimate reads it. */
  onCase?: (made: number) => void;
}

export interface ValidPhaseResult {
  records: CaseRecord[];
  runs: number;
  /** Why no payload could be generated, when that happened. */
  unsatisfiable?: string;
  /** Fixed examples sent (they come first, and fast-check counts them in `runs`). */
  examples: number;
  /**
   * What one case cost, measured on the phase's first runs (the examples alone, in an examples-only phase): the
   * quickest answered one (the mean of them all when none was answered). The first case of a method also pays for
   * one-time work on both sides (schemas compiled on first use, code not yet optimised), and on a fast target that
   * is most of its time.
   */
  caseMs: number;
  /**
   * Runs `runs` generated cases more (examples-only phases), within `timeLimitMs` and while `goOn(made)` holds (asked
   * before each case, with the generated cases made so far); their records are appended.
   */
  extend(runs: number, timeLimitMs: number, goOn?: (made: number) => boolean): Promise<void>;
  /**
   * Re-runs the phase with a failing predicate to shrink a counterexample for one check, within `timeLimitMs` (the
   * phase's own limit by default): interrupted, it gives the smallest failing case found so far, or none.
   */
  shrink(failing: (record: CaseRecord) => boolean, timeLimitMs?: number): Promise<Counterexample | undefined>;
}

/** Hand-picked first cases: the smallest payload, every optional key, and 64 KiB strings. */
function examplesFor(options: ValidPhaseOptions): JsonValue[] {
  const { bases } = options;
  if (bases.unsatisfiable !== undefined) throw bases.unsatisfiable;
  const examples = [bases.minimal, bases.full];
  const long = longStringVariant(bases.full, options.validateParams);
  if (long !== undefined) examples.push(long);
  // Compared structurally, which stops at the first difference: the long variant is hundreds of KiB as text.
  return examples.filter((example, index) => examples.findIndex((other) => jsonEqual(other, example)) === index);
}

/**
 * fast-check's `interruptAfterTimeLimit` with one timer for the whole check instead of one per run: a run that
 * would start at or after the limit is interrupted before it starts, and one still going when the limit passes
 * is interrupted then (its work goes on and is kept when it ends), each with the PreconditionFailure fast-check
 * uses. Give the check no `interruptAfterTimeLimit` of its own.
 */
async function withinTimeLimit<T>(timeLimitMs: number, check: (interruptible: (run: () => Promise<boolean>) => Promise<boolean>) => Promise<T>, goOn: () => boolean = () => true): Promise<T> {
  const deadline = Date.now() + timeLimitMs;
  let interruptRun: ((failure: fc.PreconditionFailure) => void) | undefined;
  const timer = setTimeout(() => interruptRun?.(new fc.PreconditionFailure(true)), timeLimitMs);
  const interruptible = (run: () => Promise<boolean>): Promise<boolean> => {
    if (Date.now() >= deadline || !goOn()) return Promise.reject(new fc.PreconditionFailure(true));
    return new Promise<boolean>((resolve, reject) => {
      interruptRun = reject;
      run().then(resolve, reject);
    });
  };
  try {
    return await check(interruptible);
  } finally {
    clearTimeout(timer);
  }
}

/** The positive phase: seeded fast-check payloads (plus fixed examples), each bound to live objects and sent. */
export async function runValidPhase(options: ValidPhaseOptions): Promise<ValidPhaseResult> {
  let arbitrary: fc.Arbitrary<JsonValue>;
  let examples: JsonValue[];
  try {
    arbitrary = arbitraryFromSchema(options.method.paramsSchema, { resolver: options.resolver, memo: options.memo });
    examples = examplesFor(options);
  } catch (error) {
    if (!(error instanceof UnsatisfiableSchemaError)) throw error;
    return { records: [], runs: 0, examples: 0, caseMs: 0, unsatisfiable: error.message, extend: async () => undefined, shrink: async () => undefined };
  }
  const params = {
    seed: options.seed,
    numRuns: options.examplesOnly ? examples.length : options.runs,
    examples: examples.map((example) => [example] as [JsonValue]),
    markInterruptAsFailure: false,
  };
  const records: CaseRecord[] = [];
  // Cases answered take their round trip; one skipped unsent (the target went silent) or left unanswered says nothing
  // of that, and counts in the mean only when no case was answered.
  const timing = { quickestAnsweredMs: Number.POSITIVE_INFINITY, totalMs: 0, cases: 0 };
  const sendAll = (runParams: typeof params, timeLimitMs: number, goOn?: () => boolean) =>
    withinTimeLimit(
      timeLimitMs,
      (interruptible) =>
        fc.check(
          fc.asyncProperty(arbitrary, (generated) =>
            interruptible(() => {
              const sentAt = performance.now();
              return options.sender.send('valid', generated).then((record) => {
                if (record) records.push(record);
                const tookMs = performance.now() - sentAt;
                timing.totalMs += tookMs;
                timing.cases++;
                if (record?.exchange.response !== undefined) timing.quickestAnsweredMs = Math.min(timing.quickestAnsweredMs, tookMs);
                options.onCase?.(timing.cases);
                return true;
              });
            }),
          ),
          runParams,
        ),
      goOn,
    );
  const details = await sendAll(params, options.timeLimitMs);
  const result: ValidPhaseResult = {
    records,
    runs: details.numRuns,
    examples: Math.min(examples.length, details.numRuns),
    caseMs: Number.isFinite(timing.quickestAnsweredMs) ? timing.quickestAnsweredMs : timing.totalMs / Math.max(1, timing.cases),
    async extend(runs, timeLimitMs, goOn) {
      if (runs <= 0) return;
      const before = records.length;
      // The generated values do not depend on the examples before them: the same seed draws the same cases, so
      // the shrink below (generated cases first, without examples) replays these.
      const more = { ...params, numRuns: runs, examples: [] };
      const extended = await sendAll(more, timeLimitMs, goOn && (() => goOn(records.length - before)));
      // The shrink replays the cases made, not the most that were allowed.
      params.numRuns = Math.max(extended.numRuns, records.length - before);
      result.runs += extended.numRuns;
    },
    async shrink(failing, timeLimitMs = options.timeLimitMs) {
      const deadline = Date.now() + timeLimitMs;
      // Generated cases shrink with their context; the fixed examples cannot, so they are tried last.
      for (const examplesOfRun of [[], params.examples]) {
        const left = deadline - Date.now();
        if (left <= 0) return undefined;
        let last: CaseRecord | undefined;
        const shrunk = await fc.check(
          fc.asyncProperty(arbitrary, async (generated) => {
            const record = await options.sender.send('valid', generated);
            if (!record || !failing(record)) return true;
            last = record;
            return false;
          }),
          { ...params, interruptAfterTimeLimit: left, examples: examplesOfRun },
        );
        if (shrunk.failed && last) {
          return { seed: options.seed, ...(shrunk.counterexamplePath ? { path: shrunk.counterexamplePath } : {}), shrinks: shrunk.numShrinks, record: last };
        }
      }
      return undefined;
    },
  };
  return result;
}
