import type { Matrix } from './matrixTypes.js';

const REASONS_LISTED = 3;
const REASON_CHARS = 200;
const REASON_HEAD = 70;

/** A cell's detail as a reason shared by methods: its own name, ids and counts taken out, its first clause kept. */
function reasonOf(method: string, detail: string): string {
  // The name as a token only: a method called `add` must not take the letters out of "address".
  const named = new RegExp(`(?<![\\w.])${method.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!\\w|\\.\\w)`, 'g');
  const general = detail
    .replace(named, '…')
    .replace(/\b[0-9a-f]{8,}\b/g, '…')
    .replace(/^\d+ of \d+ \w+ broke the rule: /, '')
    .replace(/^…: /, '');
  let clause = general.split('; ')[0] ?? general;
  // A parenthesis the cut at '; ' left open is an aside: dropped.
  if ((clause.match(/\(/g) ?? []).length > (clause.match(/\)/g) ?? []).length) clause = clause.slice(0, clause.lastIndexOf(' ('));
  // A long reason is a chain of causes: its start says what failed, its end the innermost why (cut between words).
  if (clause.length <= REASON_CHARS) return clause;
  const head = clause.slice(0, REASON_HEAD);
  const tail = clause.slice(-(REASON_CHARS - REASON_HEAD - 3));
  const headEnd = head.lastIndexOf(' ');
  const tailStart = tail.indexOf(' ');
  return `${headEnd > 0 ? head.slice(0, headEnd) : head} … ${tailStart >= 0 && tailStart < tail.length - 1 ? tail.slice(tailStart + 1) : tail}`;
}

/**
 * Why the methods that reached no success did not, grouped by the detail of their `params.valid-accepted` cell, most
 * shared first: one line for the summary, so that a run whose coverage is low says why beside its verdict (a PASS
 * that judged one method of thirty-three must not read like one that judged them all). Undefined when every method
 * was reached.
 */
export function unreachedSentence(matrix: Matrix): string | undefined {
  const { unreached, methods } = matrix.coverage;
  if (unreached.length === 0) return undefined;
  const validCells = new Map(matrix.cells.filter((c) => c.check === 'params.valid-accepted').map((c) => [c.method, c]));
  const groups = new Map<string, number>();
  for (const method of unreached) {
    const cell = validCells.get(method);
    // A passing cell of a method never answered with a success: every valid payload got a domain error.
    const reason = !cell ? 'no params.valid-accepted cell' : cell.status === 'pass' ? 'every valid payload got a domain error' : `${cell.status}: ${reasonOf(method, cell.detail ?? '')}`;
    groups.set(reason, (groups.get(reason) ?? 0) + 1);
  }
  const sorted = [...groups].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const listed = sorted.slice(0, REASONS_LISTED).map(([reason, count]) => `${count} × ${reason}`);
  const more = sorted.length > REASONS_LISTED ? `; ${sorted.length - REASONS_LISTED} other reason(s) in matrix.md` : '';
  return `${unreached.length} of ${methods} methods reached no success: ${listed.join('; ')}${more}`;
}
