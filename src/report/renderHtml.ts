import { runsSentence } from './runsText.js';
import { failsGate, sortChecks } from './matrixModel.js';
import type { Matrix, MatrixCell } from './matrixTypes.js';
import { describeEvidence } from '../checks/evidence.js';
import { STATUS_LEGEND, STATUS_SYMBOL, contractsText, countsText, coverageText, replayCommand, targetDownSentence, verdictSentence } from './renderMarkdown.js';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Only relative paths become links: the report folder is opened from disk or from a CI artifact. */
function relativeHref(path: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('/') || path.startsWith('\\')) return undefined;
  return encodeURI(path.replace(/\\/g, '/'));
}

/** A link to a file the cell attached, named by its file name. */
function attachmentLink(file: string): string {
  const href = relativeHref(file);
  const name = escapeHtml(file.split(/[\\/]/).at(-1) ?? file);
  return href ? `<a href="${escapeHtml(href)}">${name}</a>` : `<code>${name}</code>`;
}

function cellHtml(cell: MatrixCell | undefined, column: number): string {
  if (!cell) return `<td class="empty" data-col="${column}"></td>`;
  const attrs = [
    `data-col="${column}"`,
    `data-status="${escapeHtml(cell.status)}"`,
    `data-method="${escapeHtml(cell.method)}"`,
    `data-check="${escapeHtml(cell.check)}"`,
    `class="s-${cell.status === 'n/a' ? 'na' : cell.status}"`,
    'tabindex="0"',
  ];
  if (cell.detail) attrs.push(`title="${escapeHtml(cell.detail)}"`, `data-detail="${escapeHtml(cell.detail)}"`);
  if (cell.replay) attrs.push(`data-replay="${escapeHtml(replayCommand(cell.replay))}"`);
  if (cell.evidence) attrs.push(`data-evidence="${escapeHtml(describeEvidence(cell.evidence))}"`);
  if (cell.attempts) attrs.push(`data-attempts="${cell.attempts}"`);
  const href = cell.transcript ? relativeHref(cell.transcript) : undefined;
  if (href) attrs.push(`data-transcript="${escapeHtml(href)}"`);
  const link = href && failsGate(cell.status) ? ` <a class="log" href="${escapeHtml(href)}" title="open the transcript">log</a>` : '';
  return `<td ${attrs.join(' ')}>${escapeHtml(STATUS_SYMBOL[cell.status])}${link}</td>`;
}

function gridHtml(matrix: Matrix): string {
  if (matrix.cells.length === 0) return '<p>No matrix cells: no test carried <code>@method:</code> and <code>@check:</code> tags.</p>';
  const checks = sortChecks(matrix.cells.map((cell) => cell.check));
  const rows = new Map<string, Map<string, MatrixCell>>();
  for (const cell of matrix.cells) rows.set(cell.method, (rows.get(cell.method) ?? new Map<string, MatrixCell>()).set(cell.check, cell));
  const head = checks.map((check, index) => `<th scope="col" data-col="${index}"><span>${escapeHtml(check)}</span></th>`).join('');
  const body = [...rows]
    .map(([subject, row]) => {
      const cells = checks.map((check, index) => cellHtml(row.get(check), index)).join('');
      return `<tr data-subject="${escapeHtml(subject)}"><th scope="row">${escapeHtml(subject)}</th>${cells}</tr>`;
    })
    .join('\n');
  return `<div class="grid"><table id="matrix"><thead><tr><th scope="col">subject</th>${head}</tr></thead>\n<tbody>\n${body}\n</tbody></table></div>`;
}

function failureListHtml(matrix: Matrix): string {
  const failing = matrix.cells.filter((cell) => failsGate(cell.status));
  if (failing.length === 0) return '';
  const items = failing.map((cell) => {
    const href = cell.transcript ? relativeHref(cell.transcript) : undefined;
    const extras = [
      cell.replay ? `<code>${escapeHtml(replayCommand(cell.replay))}</code>` : '',
      href ? `<a href="${escapeHtml(href)}">transcript</a>` : '',
      ...(cell.attachments ?? []).map((file) => attachmentLink(file)),
    ].filter(Boolean);
    return (
      `<li><b class="s-${cell.status}">${escapeHtml(STATUS_SYMBOL[cell.status])}</b> <code>${escapeHtml(cell.method)}</code> × ` +
      `<code>${escapeHtml(cell.check)}</code>${cell.detail ? `: ${escapeHtml(cell.detail)}` : ''}` +
      `${extras.length ? `<br>${extras.join(' · ')}` : ''}</li>`
    );
  });
  return `<section><h2>Failures (${failing.length})</h2><ul class="failures">${items.join('\n')}</ul></section>`;
}

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:1.5rem;color:#1d1d1f;background:#fff}
h1{font-size:1.3rem;margin:0 0 .75rem}h1.fail{color:#b42318}h1.pass{color:#067647}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:0 0 1rem}dt{font-weight:600}dd{margin:0}
.controls{display:flex;gap:1rem;align-items:center;flex-wrap:wrap;margin:.5rem 0}
.controls fieldset{border:0;padding:0;margin:0;display:flex;gap:.75rem}
.grid{display:inline-block;max-width:100%;overflow:auto;max-height:75vh;border:1px solid #ddd}
table{border-collapse:collapse}th,td{border:1px solid #e4e4e7;padding:.2rem .45rem;text-align:center;white-space:nowrap}
thead th{position:sticky;top:0;background:#f4f4f5;z-index:2;vertical-align:bottom}
thead th span{writing-mode:vertical-rl;transform:rotate(180deg);font-weight:500}
tbody th{position:sticky;left:0;background:#fafafa;text-align:left;font:13px ui-monospace,monospace;z-index:1}
td[data-status]{cursor:pointer}td:focus{outline:2px solid #2563eb}
.s-pass{background:#ecfdf3;color:#067647}.s-fail{background:#fee4e2;color:#b42318;font-weight:700}
.s-stale{background:#fef0c7;color:#93370d;font-weight:700}.s-known-fail{background:#f2f4f7;color:#475467}
.target-down{background:#fef3f2;border:1px solid #b42318;padding:.5rem .75rem}.s-flaky{background:#fef0c7;color:#b54708}.s-na{color:#98a2b3}.s-not-run{background:#fff6ed;color:#b54708}
td.off{visibility:hidden}.col-off{display:none}
#detail{border:1px solid #d0d5dd;border-radius:6px;padding:.5rem .75rem;margin:.75rem 0;background:#f9fafb}
#detail code,.failures code{font:13px ui-monospace,monospace}.legend{color:#667085;font-size:12px}
`;

const SCRIPT = `
(() => {
  const table = document.getElementById('matrix');
  const filter = document.getElementById('filter');
  const shown = document.getElementById('shown');
  const panel = document.getElementById('detail');
  const failing = (td) => td.dataset.status === 'fail' || td.dataset.status === 'stale';
  function apply() {
    if (!table) return;
    const failuresOnly = document.querySelector('input[name=show]:checked').value === 'failures';
    const text = filter.value.trim().toLowerCase();
    const rows = [...table.tBodies[0].rows];
    const liveCols = new Set();
    let count = 0;
    for (const row of rows) {
      const cells = [...row.querySelectorAll('td[data-status]')];
      const matches = (td) => !text || row.dataset.subject.toLowerCase().includes(text) ||
        td.dataset.check.toLowerCase().includes(text) || (td.dataset.detail || '').toLowerCase().includes(text);
      const keep = cells.filter((td) => (!failuresOnly || failing(td)) && matches(td));
      row.hidden = keep.length === 0;
      for (const td of cells) td.classList.toggle('off', !keep.includes(td));
      for (const td of keep) liveCols.add(td.dataset.col);
      count += keep.length;
    }
    for (const el of table.querySelectorAll('[data-col]')) el.classList.toggle('col-off', failuresOnly && !liveCols.has(el.dataset.col));
    shown.textContent = count + ' cell' + (count === 1 ? '' : 's') + ' shown';
  }
  function show(td) {
    const parts = [['Subject', td.dataset.method], ['Check', td.dataset.check], ['Status', td.dataset.status]];
    if (td.dataset.detail) parts.push(['Detail', td.dataset.detail]);
    if (td.dataset.replay) parts.push(['Replay', td.dataset.replay]);
    if (td.dataset.evidence) parts.push(['Observed', td.dataset.evidence]);
    if (td.dataset.attempts) parts.push(['Attempts', td.dataset.attempts]);
    panel.replaceChildren(...parts.map(([name, value]) => {
      const line = document.createElement('div');
      const label = document.createElement('b');
      label.textContent = name + ': ';
      const body = document.createElement(name === 'Replay' ? 'code' : 'span');
      body.textContent = value;
      line.append(label, body);
      return line;
    }));
    if (td.dataset.transcript) {
      const link = document.createElement('a');
      link.href = td.dataset.transcript;
      link.textContent = 'open the transcript';
      panel.append(link);
    }
    panel.hidden = false;
  }
  document.querySelectorAll('input[name=show]').forEach((input) => input.addEventListener('change', apply));
  filter.addEventListener('input', apply);
  if (table) {
    table.addEventListener('click', (event) => {
      const td = event.target.closest('td[data-status]');
      if (td && !event.target.closest('a')) show(td);
    });
    table.addEventListener('keydown', (event) => {
      const td = event.target.closest('td[data-status]');
      if (td && event.key === 'Enter') show(td);
    });
  }
  apply();
})();
`;

/** One self-contained page (no external assets): verdict, run facts, a filterable grid and the failure list. */
export function renderHtml(matrix: Matrix): string {
  const facts: Array<[string, string]> = [
    ['Target', matrix.target],
    ['Contracts', contractsText(matrix)],
    ['Seed', matrix.seed === null ? 'not set' : String(matrix.seed)],
    ...(matrix.shard ? [['Shard', `${matrix.shard} (this shard only)`] as [string, string]] : []),
    ['Coverage', coverageText(matrix) + (matrix.coverage.unreached.length ? `; unreached: ${matrix.coverage.unreached.join(', ')}` : '')],
    ['Cells', countsText(matrix)],
    ...(matrix.runs ? [['Runs', runsSentence(matrix.runs)] as [string, string]] : []),
    ['Generated', matrix.generatedAt],
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Contract gate ${matrix.verdict.toUpperCase()}: ${escapeHtml(matrix.target)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1 class="${matrix.verdict}">Contract gate ${escapeHtml(verdictSentence(matrix))}</h1>
<dl>${facts.map(([name, value]) => `<dt>${escapeHtml(name)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>
${targetDownSentence(matrix) ? `<p class="target-down" role="alert"><b>${escapeHtml(targetDownSentence(matrix) ?? '')}</b><br>Every cell not judged before it is not-run.</p>` : ''}
<div class="controls">
<fieldset><legend hidden>Show</legend>
<label><input type="radio" name="show" value="all" checked> all</label>
<label><input type="radio" name="show" value="failures"> failures only</label>
</fieldset>
<label>filter <input type="search" id="filter" placeholder="method, check or detail"></label>
<span id="shown" aria-live="polite"></span>
</div>
<div id="detail" hidden></div>
${gridHtml(matrix)}
<p class="legend">${escapeHtml(STATUS_LEGEND)}. Hover a cell for its detail; click it for the detail panel.</p>
${failureListHtml(matrix)}
<script>${SCRIPT}</script>
</body>
</html>
`;
}
