/**
 * How a time budget (`--budget`) is spread over the generated valid cases of a run's methods. Pure: the method
 * runs measure what a method costs and keep a ledger (fixtures/budgetLedger.ts); this decides from those numbers.
 *
 * Fixed cases (the valid-phase examples, the unknown-key probes, the negative mutations) are never cut. What is
 * left is shared by max-min fairness in time: every method gets the same slice of time for its generated cases, a
 * method that needs less than the slice gets all it asked for, and what it leaves goes to the others. Fast methods
 * are then fuzzed in full and the slow ones share the rest, instead of one slow method eating the budget or every
 * method being cut to the slow one's count.
 */

/** One method's cost, measured on its fixed cases (or estimated from the methods measured so far). */
export interface MethodCost {
  /** Time its fixed cases take (still to be spent: zero once they ran). */
  readonly fixedMs: number;
  /** Time one generated valid case takes, with the binding calls it needs. */
  readonly perRunMs: number;
  /** Valid-phase runs that are fixed examples: fast-check counts them in `numRuns`, they are never cut. */
  readonly examples: number;
  /** Valid-phase runs asked for (`--runs`). */
  readonly asked: number;
}

/** The valid-phase runs (`numRuns`, examples included) the budget gives each method, in the order given. */
export function allocateRuns(budgetMs: number, methods: readonly MethodCost[]): number[] {
  const fixed = methods.reduce((sum, method) => sum + method.fixedMs, 0);
  const demands = methods.map((method) => Math.max(0, method.asked - method.examples) * method.perRunMs);
  const slice = waterLevel(Math.max(0, budgetMs - fixed), demands);
  return methods.map((method, index) => {
    const extra = Math.max(0, method.asked - method.examples);
    if (method.perRunMs <= 0) return method.examples + extra;
    // Costs are measured in fractions of a millisecond: a share divided by the per-run cost again can fall a rounding
    // error short of the count it was made from (47 runs of 3.3 ms: 46.99999999999999), so a billionth of a case is
    // allowed before rounding down.
    const share = Math.min(demands[index] as number, slice);
    return method.examples + Math.min(extra, Math.floor(share / method.perRunMs + 1e-9));
  });
}

/** The level t with Σ min(demand, t) = available (every demand met when they fit: Infinity). */
function waterLevel(available: number, demands: readonly number[]): number {
  const sorted = [...demands].sort((a, b) => a - b);
  let left = available;
  for (let index = 0; index < sorted.length; index++) {
    const demand = sorted[index] as number;
    const remaining = sorted.length - index;
    if (demand * remaining > left) return left / remaining;
    left -= demand;
  }
  return Number.POSITIVE_INFINITY;
}

/** Time the runs of {@link allocateRuns} are predicted to take. */
export function predictedMs(methods: readonly MethodCost[], runs: readonly number[]): number {
  return methods.reduce((sum, method, index) => sum + method.fixedMs + Math.max(0, (runs[index] ?? 0) - method.examples) * method.perRunMs, 0);
}

/** Part of the budget kept for what follows the method runs: the connection and scenario cells, the reports. */
export const BUDGET_RESERVE = 0.15;

/**
 * Time kept at the end of the budget: its BUDGET_RESERVE share, plus twice what the run took to start its first
 * method run (the cells that follow start their workers again, then send their own requests).
 */
export function reserveMs(budgetMs: number, startupMs: number): number {
  return budgetMs * BUDGET_RESERVE + 2 * Math.max(0, startupMs);
}

export interface GrantInput {
  readonly nowMs: number;
  /** When the run started (every worker reads the same time from the run configuration). */
  readonly startedAtMs: number;
  readonly budgetMs: number;
  /** Kept at the end of the budget ({@link reserveMs}). */
  readonly reserveMs: number;
  /** Method runs going on at once (workers, or lanes of the in-process runner). */
  readonly lanes: number;
  /** The method asking: its fixed cases have run (`fixedMs` is 0), its per-run cost is measured. */
  readonly self: MethodCost;
  /** Methods of the run that have no grant yet (not started, or still on their fixed cases), their cost estimated. */
  readonly pending: readonly MethodCost[];
  /** Time the methods already granted, other than this one, are still expected to take. */
  readonly inFlightMs: number;
}

export interface Grant {
  /** The valid-phase runs (`numRuns`), examples included. */
  readonly runs: number;
  /** When the generated cases must stop, whatever their count: the end of the budget less the reserve. */
  readonly timeLimitMs: number;
}

/**
 * A method's share, decided when it asks (its fixed cases done): the time left before the reserve, on every lane,
 * less what the others already granted still need, is allocated over this method and the pending ones.
 */
export function grantRuns(input: GrantInput): Grant {
  const cutoff = input.startedAtMs + input.budgetMs - input.reserveMs;
  const wallLeft = Math.max(0, cutoff - input.nowMs);
  const capacity = Math.max(0, wallLeft * Math.max(1, input.lanes) - input.inFlightMs);
  const methods = [input.self, ...input.pending];
  const [runs] = allocateRuns(capacity, methods);
  // One lane runs one method: its slice is never more than the wall time left.
  const perRun = input.self.perRunMs;
  const wallRuns = perRun > 0 ? input.self.examples + Math.floor(wallLeft / perRun) : Number.POSITIVE_INFINITY;
  return { runs: Math.min(runs as number, Math.max(input.self.examples, wallRuns)), timeLimitMs: wallLeft };
}

/** A method's calibration request and the cost of one of its valid cases measured later, in its method run. */
export interface CalibratedCost {
  readonly calibratedMs: number;
  readonly measuredMs: number;
}

/**
 * What a calibration request took beyond what the method's cases then cost: the median over the methods measured
 * so far (never below zero). The calibration comes first, while the other method runs start beside it (their
 * schemas compiled, their code not yet optimised): on a fast target that adds some milliseconds to every request,
 * nearly all of its time. The delay adds to a request rather than multiplying it: a method that takes half a second
 * keeps nearly all of it.
 */
export function calibrationOverheadMs(costs: readonly CalibratedCost[]): number {
  return Math.max(0, median(costs.map((cost) => cost.calibratedMs - cost.measuredMs)) ?? 0);
}

/** A method not measured yet: the time of one of its cases, from its calibration request less the overhead (at least 1 ms). */
export function calibratedPerRunMs(calibratedMs: number, overheadMs: number): number {
  return Math.max(1, calibratedMs - overheadMs);
}

/** The middle value (undefined for none): what an unmeasured method is expected to cost. */
export function median(values: readonly number[]): number | undefined {
  return quantile(values, 0.5);
}

/**
 * The value below which the fraction `q` of the values lie, interpolated between the two nearest (undefined for
 * none). The fixed cases of a method not measured yet are estimated at the upper quartile: they are never cut, so a
 * method whose fixed cases take more than the typical one's would otherwise run them past the budget's end.
 */
export function quantile(values: readonly number[], q: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * Math.min(1, Math.max(0, q));
  const below = Math.floor(position);
  const low = sorted[below] as number;
  const high = sorted[Math.min(sorted.length - 1, below + 1)] as number;
  return low + (high - low) * (position - below);
}
