import { expect, test } from './helpers/test.js';
import fc from 'fast-check';
import { laneWork } from '../../fixtures/inProcessRun.js';
import { CELL_TIMEOUT_MS } from '../../src/config/runConfig.js';
import type { CellDeclaration } from '../../src/run/cellTypes.js';

/*
 * What the run engine's lanes take on an embedded target: live cells of one `together` key are one piece of work,
 * in declaration order (the later ones judge what the first one's search recorded, as in one Playwright worker),
 * every other cell is a piece of its own, and the pieces come longest declared timeout first, judge cells last.
 */

const live = async () => ({ status: 'pass' as const, detail: '', violations: [] });
const judge = () => ({ status: 'pass' as const, detail: '', violations: [] });

function cellOf(index: number, kind: 'live' | 'judge', timeoutMs: number | undefined, together: string | undefined): CellDeclaration {
  return {
    subject: `s${index}`,
    check: 'stateful.model',
    group: `s${index}`,
    family: 'unit',
    stage: 'cells',
    timeoutMs,
    ...(together === undefined ? {} : { together }),
    run: kind === 'live' ? { kind, body: live } : { kind, judge },
  } as unknown as CellDeclaration;
}

const weight = (cell: CellDeclaration): number => (cell.run.kind === 'live' ? (cell.timeoutMs ?? CELL_TIMEOUT_MS) : -1);

test('the two stateful cells are one piece of work, run one after the other on one lane, before the shorter live cells and the judge cells', () => {
  const judgeCell = cellOf(0, 'judge', undefined, undefined);
  const model = cellOf(1, 'live', 180_000, 'stateful');
  const cancel = cellOf(2, 'live', 10_000, undefined);
  const differential = cellOf(3, 'live', 180_000, 'stateful');
  const work = laneWork([judgeCell, model, cancel, differential]);
  expect(work).toEqual([[model, differential], [cancel], [judgeCell]]);
});

test('every cell is taken once; live cells of one key share a piece in declaration order; pieces come heaviest first', () => {
  const cells = fc.array(
    fc.record({ kind: fc.constantFrom<'live' | 'judge'>('live', 'judge'), timeoutMs: fc.option(fc.constantFrom(1_000, 10_000, 180_000), { nil: undefined }), together: fc.option(fc.constantFrom('a', 'b'), { nil: undefined }) }),
    { maxLength: 12 },
  );
  fc.assert(
    fc.property(cells, (specs) => {
      const declared = specs.map((spec, index) => cellOf(index, spec.kind, spec.timeoutMs, spec.together));
      const work = laneWork(declared);
      const taken = work.flat();
      if (taken.length !== declared.length || new Set(taken).size !== declared.length) return false;
      for (const piece of work) {
        const keys = new Set(piece.map((cell) => (cell.run.kind === 'live' ? cell.together : undefined)));
        // A piece is one cell, or the live cells of one key: all of them, in declaration order.
        if (piece.length > 1) {
          const [key] = [...keys];
          if (keys.size !== 1 || key === undefined) return false;
          const all = declared.filter((cell) => cell.run.kind === 'live' && cell.together === key);
          if (all.length !== piece.length || all.some((cell, index) => piece[index] !== cell)) return false;
        }
      }
      // Every live cell of a key is in the piece of the key's first live cell.
      for (const key of ['a', 'b']) {
        const all = declared.filter((cell) => cell.run.kind === 'live' && cell.together === key);
        if (all.length > 0 && !work.some((piece) => piece.length === all.length && piece[0] === all[0])) return false;
      }
      const heaviest = work.map((piece) => Math.max(...piece.map(weight)));
      return heaviest.every((value, index) => index === 0 || (heaviest[index - 1] as number) >= value);
    }),
    { numRuns: 300 },
  );
});
