/** Exit codes are part of the CI contract and documented in the README. */
export const EXIT = {
  /**
   * Every check holds or is a known failure in the baseline (or: nothing breaking, for skew). Flaky cells (failed,
   * then passed on a `--retries` attempt) exit 0 too, unless `--fail-on-flaky`.
   */
  OK: 0,
  /**
   * A check failed, a baseline entry is stale, a cell is flaky under `--fail-on-flaky`, fewer methods were reached
   * than `--min-coverage` asks, or no check could be judged (or: a breaking skew finding, a reproduced failure for
   * replay, a proxy finding under `--fail-on finding`).
   */
  FAILED: 1,
  /** Usage or harness error: bad arguments, target unreachable, contract invalid, a `--grep` that selects no check. */
  USAGE: 2,
} as const;
