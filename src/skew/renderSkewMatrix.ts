import { countsText, markdownCell } from './renderSkew.js';
import { versionLabel } from './skewMessages.js';
import type { SkewFormat, SkewMatrix, SkewMatrixCell, SkewSide } from './skewTypes.js';

/** Row/column labels: the version, plus the file name where two documents carry the same version. */
function labelsOf(contracts: readonly SkewSide[]): string[] {
  const versions = contracts.map((side) => versionLabel(side.version));
  return contracts.map((side, index) => {
    const version = versions[index] ?? side.version;
    const clash = versions.filter((v) => v === version).length > 1;
    return clash ? `${version} (${side.path.split(/[\\/]/).pop() ?? side.path})` : version;
  });
}

function cellText(cell: SkewMatrixCell): string {
  if (cell.breaking) return `✗ ${cell.counts.breaking} breaking`;
  if (cell.counts.warning > 0) return `✓ ${cell.counts.warning} warning${cell.counts.warning === 1 ? '' : 's'}`;
  return '✓';
}

function cellAt(matrix: SkewMatrix, client: number, server: number): SkewMatrixCell | undefined {
  return matrix.cells.find((cell) => cell.client === client && cell.server === server);
}

function verdict(matrix: SkewMatrix): string {
  const broken = matrix.cells.filter((cell) => cell.breaking).length;
  return broken === 0
    ? `verdict: every client/server pair is compatible (${matrix.cells.length} pairs)`
    : `verdict: BREAKING — ${broken} of ${matrix.cells.length} client/server pairs cannot work together`;
}

function renderText(matrix: SkewMatrix): string {
  const labels = labelsOf(matrix.contracts);
  const corner = 'client \\ server';
  const rows = labels.map((label, client) => [label, ...labels.map((_, server) => {
    const cell = cellAt(matrix, client, server);
    return cell ? cellText(cell) : '???';
  })]);
  const header = [corner, ...labels];
  const widths = header.map((text, column) => Math.max(text.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]): string => cells.map((text, column) => text.padEnd(widths[column] ?? 0)).join('  ').trimEnd();
  const lines = [
    'can-i-deploy: rows = client version (sends params, reads results and events), columns = server version',
    line(header),
    ...rows.map(line),
  ];
  for (const cell of matrix.cells.filter((c) => c.breaking)) {
    lines.push('', `client ${labels[cell.client]} -> server ${labels[cell.server]}: ${countsText(cell.counts)}`);
    for (const f of cell.findings.filter((finding) => finding.severity === 'breaking')) {
      lines.push(`  BREAKING ${f.method} ${f.path === '' ? `(${f.direction})` : f.path}: ${f.message}`);
    }
  }
  lines.push('', verdict(matrix));
  return `${lines.join('\n')}\n`;
}

function renderMarkdown(matrix: SkewMatrix): string {
  const labels = labelsOf(matrix.contracts).map(markdownCell);
  const lines = [
    '## Contract skew matrix (can-i-deploy)',
    '',
    'Rows: client version (sends params, reads results and events). Columns: server version.',
    '',
    `| client ↓ / server → | ${labels.join(' | ')} |`,
    `|---|${labels.map(() => '---').join('|')}|`,
    ...labels.map((label, client) => {
      const cells = labels.map((_, server) => {
        const cell = cellAt(matrix, client, server);
        return cell ? cellText(cell) : '???';
      });
      return `| **${label}** | ${cells.join(' | ')} |`;
    }),
    '',
  ];
  for (const cell of matrix.cells.filter((c) => c.breaking)) {
    lines.push(`### client ${labels[cell.client]} → server ${labels[cell.server]}: ${countsText(cell.counts)}`, '');
    for (const f of cell.findings.filter((finding) => finding.severity === 'breaking')) {
      lines.push(`- \`${markdownCell(f.method)}\` ${f.path === '' ? '' : `\`${markdownCell(f.path)}\` `}(${f.kind}): ${markdownCell(f.message)}`);
    }
    lines.push('');
  }
  lines.push(`**${verdict(matrix)}**`);
  return `${lines.join('\n')}\n`;
}

export function renderSkewMatrix(matrix: SkewMatrix, format: SkewFormat = 'text'): string {
  if (format === 'json') return `${JSON.stringify(matrix, null, 2)}\n`;
  return format === 'md' ? renderMarkdown(matrix) : renderText(matrix);
}
