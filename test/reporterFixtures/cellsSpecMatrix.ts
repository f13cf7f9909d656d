import type { Matrix, MatrixCell } from '../../src/report/matrixTypes.js';

/**
 * The cells without the time their tests took, which no two runs share; and that time checked: every cell whose tests
 * ran has one (a number of milliseconds), a not-run cell none.
 */
export function untimedCells(cells: readonly MatrixCell[]): MatrixCell[] {
  const wrong = cells.filter((cell) => (cell.status === 'not-run' ? cell.durationMs !== undefined : !(typeof cell.durationMs === 'number' && cell.durationMs >= 0)));
  if (wrong.length > 0) throw new Error(`cells with a wrong durationMs: ${JSON.stringify(wrong)}`);
  return cells.map(({ durationMs: _durationMs, ...cell }) => cell);
}

/**
 * What a whole run of cells.spec.ts puts in matrix.json, whatever the run configuration: one cell of every state.
 * reportMatrixReporter holds an unsharded run to it; reportShardMerge holds the merge of two shards to it.
 */
export const CELLS_SPEC_MATRIX: Pick<Matrix, 'cells' | 'summary' | 'coverage'> = {
  cells: [
    { method: 'prompt.submit', check: 'result.schema', status: 'fail', detail: 'result.text must be string, got null' },
    {
      method: 'session.close',
      check: 'params.valid-accepted',
      status: 'fail',
      detail: 'session.close rejected a contract-valid payload',
      transcript: 'transcripts/session.close.jsonl',
      replay: 'replays/session.close.json',
    },
    { method: 'session.create', check: 'params.valid-accepted', status: 'pass' },
    { method: 'session.create', check: 'params.unknown-key-tolerated', status: 'n/a', detail: 'every params object is closed' },
    { method: 'session.list', check: 'params.valid-accepted', status: 'flaky', detail: 'passed only on a retry' },
    { method: 'session.resume', check: 'params.valid-accepted', status: 'stale', detail: 'baseline entry passes now: remove it from the baseline · reason was: GW-9 resume rejected valid ids' },
    { method: 'session.resume', check: 'result.schema', status: 'known-fail', detail: 'GW-12 result misses cwd · result.cwd' },
  ],
  summary: { pass: 1, fail: 2, knownFail: 1, stale: 1, na: 1, notRun: 0, flaky: 1, passWithoutEvidence: 1 },
  coverage: {
    methods: 4,
    reached: ['session.create', 'session.list'],
    unreached: ['session.close', 'session.resume'],
    events: { total: 0, seen: [], unseen: [] },
    serverRequests: { total: 0, seen: [], unseen: [] },
  },
};
