import { expect, test } from './helpers/test.js';
import type { Matrix } from '../../src/report/matrixTypes.js';
import { unreachedSentence } from '../../src/report/coverageText.js';

// A run whose coverage is low says why beside its verdict: the methods that reached no success, grouped by the
// reason their params.valid-accepted cell gives, most shared first.

type Cell = Matrix['cells'][number];
const cell = (method: string, status: Cell['status'], detail: string): Cell => ({ method, check: 'params.valid-accepted', status, detail }) as Cell;
const matrixOf = (reached: string[], cells: Cell[]): Matrix =>
  ({ coverage: { methods: reached.length + cells.length, reached, unreached: cells.map((c) => c.method) }, cells: [...cells, cell('noise', 'fail', 'a cell of a reached method')] }) as unknown as Matrix;

test('grouped by reason, ids and the method names taken out, the innermost cause of a long chain kept', () => {
  const why = 'not judged: the live objects this method needs could not be created: [BINDING_FAILED] setup waited for session.info of session 2715f868: [EVENT_TIMEOUT] no session.info for session 2715f868 can arrive: an HTTP target sends no events (one POST per request, its body the answer)';
  const sentence = unreachedSentence(
    matrixOf(['spawn_tree.load'], [
      cell('session.list', 'n/a', why),
      cell('session.close', 'n/a', why.replaceAll('2715f868', '604094bf')),
      cell('eth_decrypt', 'fail', '10 of 10 exchanges broke the rule: eth_decrypt: a contract-valid payload got a server error: error -32700 "The method eth_decrypt does not exist/is not available"; valid input must get a success'),
      cell('get_pet', 'pass', '100 exchanges judged, all conform'),
    ]),
  );
  expect(sentence).toMatch(/^4 of 5 methods reached no success: 2 × n\/a: not judged: the live objects this method needs could not be created: … .*an HTTP target sends no events \(one POST per request, its body the answer\); /);
  // Cut between words: what follows the ellipsis starts a word of the reason.
  const tail = /could not be created: … (\S+)/.exec(sentence ?? '')?.[1] ?? '';
  expect(why.replaceAll('2715f868', '…')).toContain(` ${tail} `);
  expect(sentence).toContain('1 × fail: a contract-valid payload got a server error: error -32700 "The method … does not exist/is not available"');
  expect(sentence).toContain('1 × every valid payload got a domain error');
  expect(sentence).not.toMatch(/2715f868|604094bf|eth_decrypt/);
});

test("a method's name is taken out as a token only", () => {
  const sentence = unreachedSentence(matrixOf([], [cell('add', 'fail', '1 of 1 exchanges broke the rule: add: the address of add.x is not add.')]));
  expect(sentence).toBe('1 of 1 methods reached no success: 1 × fail: the address of add.x is not ….');
});

test('every method reached: nothing to say; more reasons than listed: the rest are counted', () => {
  expect(unreachedSentence(matrixOf(['a', 'b'], []))).toBeUndefined();
  const many = ['w', 'x', 'y', 'z'].map((method, index) => cell(method, 'fail', `reason ${index}`));
  expect(unreachedSentence(matrixOf([], many))).toBe('4 of 4 methods reached no success: 1 × fail: reason 0; 1 × fail: reason 1; 1 × fail: reason 2; 1 other reason(s) in matrix.md');
});
