import { expect, test } from './helpers/test.js';
import { buildMatrix, type TestRecord } from '../../src/report/matrixModel.js';
import type { Matrix, MatrixRuns } from '../../src/report/matrixTypes.js';
import { attachRuns, mergeRuns } from '../../src/report/runFacts.js';
import { renderJson } from '../../src/report/renderJson.js';

// A cell fed by the generated valid payloads of a method whose runs a budget cut says so: it must not read like a
// cell that judged every run it was asked for.

const record = (method: string, check: string, failure?: string): TestRecord => ({
  tags: [`@method:${method}`, `@check:${check}`],
  outcome: failure ? 'unexpected' : 'expected',
  expectedStatus: 'passed',
  annotations: [],
  errors: failure ? [failure] : [],
  status: failure ? 'failed' : 'passed',
});

function matrixOf(): Matrix {
  const records = [
    record('node.proof', 'params.valid-accepted'),
    record('node.proof', 'result.schema', 'Error: result.height: must be integer'),
    record('node.proof', 'envelope.id-echo'),
    record('node.version', 'params.valid-accepted'),
  ];
  return buildMatrix(records, { target: 'ws://x', contracts: [], seed: 1 }, '2026-01-01T00:00:00.000Z');
}

const detailOf = (matrix: Matrix, method: string, check: string): string | undefined => matrix.cells.find((cell) => cell.method === method && cell.check === check)?.detail;

test('the valid-phase cells of a cut method name the cut and its cause; the others and the uncut methods are unchanged', () => {
  const matrix = matrixOf();
  const before = JSON.parse(renderJson(matrix)) as Matrix;
  const runs: MatrixRuns = { budgetMs: 300_000, cut: 1, methods: [{ method: 'node.proof', asked: 100, made: 2, perRunMs: 900 }, { method: 'node.version', asked: 100, made: 100 }] };
  attachRuns(matrix, runs);
  expect(matrix.runs).toEqual(runs);
  for (const check of ['params.valid-accepted', 'result.schema']) {
    const detail = detailOf(matrix, 'node.proof', check) ?? '';
    expect(detail).toContain('valid runs cut by the budget (5m): 2 of 100 made');
    const earlier = detailOf(before, 'node.proof', check);
    if (earlier) expect(detail).toBe(`${earlier} · valid runs cut by the budget (5m): 2 of 100 made`);
  }
  expect(detailOf(matrix, 'node.proof', 'envelope.id-echo')).toBe(detailOf(before, 'node.proof', 'envelope.id-echo'));
  expect(detailOf(matrix, 'node.version', 'params.valid-accepted')).toBe(detailOf(before, 'node.version', 'params.valid-accepted'));
  expect(matrix.cells.map((cell) => cell.status)).toEqual(before.cells.map((cell) => cell.status));
  expect(detailOf(before, 'node.proof', 'result.schema'), 'the failing cell had a detail of its own to keep').toContain('must be integer');
});

test('without a budget a cut is put down to the method time limit; nothing cut changes no cell', () => {
  const limited = matrixOf();
  attachRuns(limited, { cut: 1, methods: [{ method: 'node.version', asked: 100, made: 40 }] });
  expect(detailOf(limited, 'node.version', 'params.valid-accepted')).toContain('valid runs cut by its time limit: 40 of 100 made');
  const whole = matrixOf();
  const before = renderJson(whole);
  attachRuns(whole, { budgetMs: 60_000, cut: 0, methods: [{ method: 'node.proof', asked: 100, made: 100 }] });
  const { runs: _runs, ...rest } = JSON.parse(renderJson(whole)) as Matrix;
  expect(rest).toEqual(JSON.parse(before));
});

test("a sharded run's runs per method are the shards' together: a method run in two shards keeps its most cut runs", () => {
  const one: MatrixRuns = { budgetMs: 60_000, cut: 1, methods: [{ method: 'node.version', asked: 100, made: 100 }, { method: 'node.proof', asked: 100, made: 40, perRunMs: 900 }] };
  const two: MatrixRuns = { budgetMs: 60_000, cut: 1, methods: [{ method: 'node.proof', asked: 100, made: 12, perRunMs: 950 }, { method: 'node.balance', asked: 100, made: 100 }] };
  expect(mergeRuns([one, undefined, two])).toEqual({
    budgetMs: 60_000,
    cut: 1,
    methods: [{ method: 'node.balance', asked: 100, made: 100 }, { method: 'node.proof', asked: 100, made: 12, perRunMs: 950 }, { method: 'node.version', asked: 100, made: 100 }],
  });
  expect(mergeRuns([undefined, undefined])).toBeUndefined();
  // Without a budget a shard reports runs only when its time limit cut one: the merge has no budget either.
  expect(mergeRuns([{ cut: 1, methods: [{ method: 'node.proof', asked: 100, made: 3 }] }])).toEqual({ cut: 1, methods: [{ method: 'node.proof', asked: 100, made: 3 }] });
});
