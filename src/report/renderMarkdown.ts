import { describeEvidence, isEvidenced } from '../checks/evidence.js';
import { coverageShortfall, nothingJudged, nothingJudgedText, shortfallText } from './coverageGate.js';
import { runsSentence, runsTableLines } from './runsText.js';
import { sortChecks } from './matrixModel.js';
import type { CellStatus, Matrix, MatrixCell } from './matrixTypes.js';

export const STATUS_SYMBOL: Record<CellStatus, string> = {
  pass: '✓',
  fail: '✗',
  'known-fail': 'known',
  stale: 'stale',
  'n/a': 'n-a',
  'not-run': 'not-run',
  flaky: 'flaky',
};

export const STATUS_LEGEND =
  '✓ pass · ✗ fail · known = expected failure listed in the baseline · stale = baseline entry that passes now (remove it) · ' +
  'n-a = nothing to check · not-run = the test did not run · flaky = passed only on a retry · blank = no such test';

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The verdict in words, first thing a reader sees. */
export function verdictSentence(matrix: Matrix): string {
  const { summary } = matrix;
  if (matrix.verdict === 'fail') {
    const parts: string[] = [];
    if (summary.fail) parts.push(`${plural(summary.fail, 'check fails', 'checks fail')}`);
    if (summary.flaky) parts.push(`${plural(summary.flaky, 'check passes', 'checks pass')} only on a retry (flaky)`);
    if (summary.stale) parts.push(`${plural(summary.stale, 'baseline entry is', 'baseline entries are')} stale (the check passes now: remove the entry)`);
    const shortfall = coverageShortfall(matrix);
    if (shortfall) parts.push(`coverage ${shortfallText(shortfall)}`);
    if (nothingJudged(matrix)) parts.push(nothingJudgedText(matrix));
    return `FAIL: ${parts.join(', ')}.`;
  }
  if (matrix.cells.length === 0) return 'PASS, but the run has no matrix cells: no test carried @method: and @check: tags.';
  const caveats: string[] = [];
  if (summary.knownFail) caveats.push(`${plural(summary.knownFail, 'known failure', 'known failures')} from the baseline`);
  if (summary.notRun) caveats.push(`${plural(summary.notRun, 'check', 'checks')} did not run`);
  if (summary.flaky) caveats.push(`${plural(summary.flaky, 'check is', 'checks are')} flaky (failed, then passed on a retry)`);
  return `PASS: every check holds${caveats.length ? ` (${caveats.join(', ')})` : ''}.`;
}

export function coverageText(matrix: Matrix): string {
  const { methods, reached } = matrix.coverage;
  if (methods === 0) return 'no method has a params.valid-accepted check';
  const parts = [`${reached.length}/${methods} methods reached with a success (${Math.round((100 * reached.length) / methods)}%)`];
  const { events, serverRequests } = matrix.coverage;
  if (events && events.total > 0) parts.push(`${events.seen.length}/${events.total} event types seen`);
  if (serverRequests && serverRequests.total > 0) parts.push(`${serverRequests.seen.length}/${serverRequests.total} server requests received`);
  return parts.join(', ');
}

export function contractsText(matrix: Matrix): string {
  if (matrix.contracts.length === 0) return 'none recorded';
  return matrix.contracts.map((contract) => `${contract.title} ${contract.version}`).join(', ');
}

export function countsText(matrix: Matrix): string {
  const { summary } = matrix;
  const unseen = summary.passWithoutEvidence === undefined ? '' : ` · ${summary.passWithoutEvidence} pass with no evidence`;
  return `${summary.pass} pass · ${summary.fail} fail · ${summary.knownFail} known · ${summary.stale} stale · ${summary.na} n-a · ${summary.notRun} not-run${summary.flaky ? ` · ${summary.flaky} flaky` : ''}${unseen}`;
}

/** The one line that says the target died (or stopped answering), shown above the matrix. */
export function targetDownSentence(matrix: Matrix): string | undefined {
  const down = matrix.targetDown;
  if (!down) return undefined;
  const what = down.kind === 'slow' ? 'TARGET SLOW' : 'TARGET DOWN';
  return `${what} after ${down.subject} × ${down.check} at ${down.at}: ${down.frame}${down.replay ? ` (replay: ${replayCommand(down.replay)})` : ''}`;
}

/** Text safe inside a Markdown table cell or list item: one line, pipes escaped. */
function inline(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}

/** Plain text for a Markdown cell or list item: HTML-like parts such as `<string>` must show, not vanish as tags. */
function text(value: string): string {
  return inline(value).replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function code(text: string): string {
  const clean = inline(text);
  return clean.includes('`') ? `\`\` ${clean} \`\`` : `\`${clean}\``;
}

export function replayCommand(file: string): string {
  return `npx contract-gate replay ${/^[\w./@:+-]+$/.test(file) ? file : `'${file.replace(/'/g, `'\\''`)}'`}`;
}

function headerLines(matrix: Matrix): string[] {
  const rows: Array<[string, string]> = [
    ['Target', code(matrix.target)],
    ['Contracts', text(contractsText(matrix))],
    ['Seed', matrix.seed === null ? 'not set' : code(String(matrix.seed))],
  ];
  if (matrix.shard) rows.push(['Shard', `${matrix.shard} (this shard only: merge the shards for the whole matrix)`]);
  const unreached = matrix.coverage.unreached;
  const shown = unreached.slice(0, 20).map(code).join(', ') + (unreached.length > 20 ? `, … ${unreached.length - 20} more` : '');
  rows.push(['Coverage', text(coverageText(matrix)) + (unreached.length ? `; unreached: ${shown}` : '')]);
  rows.push(['Cells', countsText(matrix)]);
  if (matrix.runs) rows.push(['Runs', text(runsSentence(matrix.runs))]);
  return ['| | |', '|---|---|', ...rows.map(([name, value]) => `| ${name} | ${value} |`)];
}

function tableLines(matrix: Matrix): string[] {
  if (matrix.cells.length === 0) return [];
  const checks = sortChecks(matrix.cells.map((cell) => cell.check));
  const bySubject = new Map<string, Map<string, MatrixCell>>();
  for (const cell of matrix.cells) {
    const row = bySubject.get(cell.method) ?? new Map<string, MatrixCell>();
    row.set(cell.check, cell);
    bySubject.set(cell.method, row);
  }
  const lines = [
    `| subject | ${checks.map(text).join(' | ')} |`,
    `|---|${checks.map(() => ':-:').join('|')}|`,
  ];
  for (const [subject, row] of bySubject) {
    const marks = checks.map((check) => {
      const cell = row.get(check);
      return cell ? STATUS_SYMBOL[cell.status] : '';
    });
    lines.push(`| ${code(subject)} | ${marks.join(' | ')} |`);
  }
  lines.push('', `<sub>${STATUS_LEGEND}</sub>`);
  return lines;
}

function itemLines(cell: MatrixCell): string[] {
  const lines = [`- **${STATUS_SYMBOL[cell.status]}** ${code(cell.method)} × ${code(cell.check)}${cell.detail ? `: ${text(cell.detail)}` : ''}`];
  if (cell.attempts) lines.push(`  - attempts: ${cell.attempts}`);
  if (cell.evidence) lines.push(`  - observed: ${text(describeEvidence(cell.evidence))}`);
  if (cell.replay) lines.push(`  - replay: ${code(replayCommand(cell.replay))}`);
  if (cell.transcript) lines.push(`  - transcript: ${code(cell.transcript)}`);
  for (const file of cell.attachments ?? []) lines.push(`  - attachment: ${code(file)}`);
  return lines;
}

function sectionLines(title: string, cells: MatrixCell[], collapsed: boolean): string[] {
  if (cells.length === 0) return [];
  const items = cells.flatMap(itemLines);
  if (!collapsed) return ['', `### ${title} (${cells.length})`, '', ...items];
  return ['', `<details><summary>${title} (${cells.length})</summary>`, '', ...items, '', '</details>'];
}

/** The human report: verdict and run facts first, then the grid, then what to do about each failure. */
export function renderMarkdown(matrix: Matrix): string {
  const of = (...statuses: CellStatus[]): MatrixCell[] => matrix.cells.filter((cell) => statuses.includes(cell.status));
  const lines = [
    `## ${matrix.verdict === 'pass' ? '✓' : '✗'} Contract gate ${verdictSentence(matrix)}`,
    '',
    ...headerLines(matrix),
    '',
    ...(targetDownSentence(matrix) ? [`> **${text(targetDownSentence(matrix) ?? '')}**`, '', 'Every cell not judged before it is not-run.', ''] : []),
    ...tableLines(matrix),
    ...sectionLines('Failures', of('stale', 'fail', 'flaky'), false),
    ...sectionLines('Passes with no evidence (nothing their rule judges was observed)', matrix.cells.filter((cell) => cell.status === 'pass' && !isEvidenced(cell.evidence)), false),
    ...sectionLines('Did not run', of('not-run'), true),
    ...sectionLines('Known failures (baseline)', of('known-fail'), true),
    ...(matrix.runs ? ['', '<details><summary>Valid runs per method</summary>', '', ...runsTableLines(matrix.runs), '', '</details>'] : []),
  ];
  return `${lines.join('\n')}\n`;
}
