import type { Matrix } from './matrixTypes.js';

/** A matrix's methods reached against the floor `--min-coverage` set (a percentage of the methods). */
export interface CoverageShortfall {
  readonly min: number;
  readonly reached: number;
  readonly methods: number;
}

/**
 * The coverage floor the matrix misses, or undefined (no floor, or it is met). A method counts as reached when one
 * of its valid calls was answered with a success; a selection with no `params.valid-accepted` cell reaches nothing,
 * so it misses any floor: a gate asked for coverage never passes on none. A shard covers part of the methods only:
 * its matrix is not held to the floor, the merged one is.
 */
export function coverageShortfall(matrix: Pick<Matrix, 'minCoverage' | 'shard' | 'coverage'>): CoverageShortfall | undefined {
  const min = matrix.minCoverage ?? 0;
  if (min <= 0 || matrix.shard !== undefined) return undefined;
  const reached = matrix.coverage.reached.length;
  const { methods } = matrix.coverage;
  // Integers only: 1 of 3 methods is below 34% and meets 33%.
  if (methods > 0 && reached * 100 >= min * methods) return undefined;
  return { min, reached, methods };
}

/** The shortfall in words: "1/33 methods reached with a success (3%), below --min-coverage 50%". */
export function shortfallText(shortfall: CoverageShortfall): string {
  const { min, reached, methods } = shortfall;
  const share = methods === 0 ? 'no method has a params.valid-accepted check' : `${reached}/${methods} methods reached with a success (${Math.floor((100 * reached) / methods)}%)`;
  return `${share}, below --min-coverage ${min}%`;
}

/**
 * True when a whole run's matrix has cells and judged none of them: every one was n/a for this target (a `--grep` of
 * auth checks against a gateway without auth, say). Such a run has seen nothing it could judge, so it does not pass,
 * as a `--grep` that selects no check is refused. A shard's matrix is not held to it (a shard may be dealt only n/a
 * cells); the merged one is. Cells that did not run are the INCOMPLETE verdict's, not this rule's.
 */
export function nothingJudged(matrix: Pick<Matrix, 'shard' | 'cells'>): boolean {
  if (matrix.shard !== undefined || matrix.cells.length === 0) return false;
  return matrix.cells.every((cell) => cell.status === 'n/a');
}

/** Why a run that judged nothing fails, in words. */
export function nothingJudgedText(matrix: Pick<Matrix, 'cells'>): string {
  return `no check was judged: all ${matrix.cells.length} selected checks are n/a for this target (matrix.md gives each one's reason); select checks that apply to it`;
}
