import { sideLabel, versionLabel } from './skewMessages.js';
import type { SkewCounts, SkewFinding, SkewFormat, SkewReport, SkewSide } from './skewTypes.js';

export function countFindings(findings: readonly SkewFinding[]): SkewCounts {
  const counts: SkewCounts = { breaking: 0, warning: 0, info: 0 };
  for (const finding of findings) counts[finding.severity]++;
  return counts;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

export function countsText(counts: SkewCounts): string {
  return `${counts.breaking} breaking, ${plural(counts.warning, 'warning')}, ${counts.info} info`;
}

export function sideText(side: SkewSide): string {
  return `${side.title} ${versionLabel(side.version)} (${side.path})`;
}

/** `(params)` / `(method)` stand in for the empty location so that every text line has the same four parts. */
function locationText(finding: SkewFinding): string {
  if (finding.path !== '') return finding.path;
  return finding.direction === 'request' ? '(params)' : `(${finding.direction})`;
}

function renderText(report: SkewReport): string {
  const lines = [`skew: client ${sideText(report.client)} -> server ${sideText(report.server)}`];
  for (const finding of report.findings) {
    lines.push(`${finding.severity.toUpperCase()} ${finding.method} ${locationText(finding)}: ${finding.message}`);
  }
  const counts = countFindings(report.findings);
  lines.push(
    report.breaking
      ? `verdict: BREAKING — clients on ${sideLabel(report.client, report.server)} cannot work with servers on ${sideLabel(report.server, report.client)} (${countsText(counts)})`
      : `verdict: compatible — nothing breaking for clients on ${sideLabel(report.client, report.server)} against servers on ${sideLabel(report.server, report.client)} (${countsText(counts)})`,
  );
  return `${lines.join('\n')}\n`;
}

/** Escapes what would end a Markdown table cell or start inline markup by accident. */
export function markdownCell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function renderMarkdown(report: SkewReport): string {
  const counts = countFindings(report.findings);
  const lines = [
    `## Contract skew: client ${markdownCell(report.client.title)} ${versionLabel(report.client.version)} → server ${markdownCell(report.server.title)} ${versionLabel(report.server.version)}`,
    '',
    `**Verdict: ${report.breaking ? '✗ breaking' : '✓ compatible'}** — ${countsText(counts)}.`,
    '',
    `- client (sends params, reads results and events): \`${markdownCell(report.client.path)}\``,
    `- server (reads params, sends results and events): \`${markdownCell(report.server.path)}\``,
    '',
  ];
  if (report.findings.length === 0) {
    lines.push('No findings.');
  } else {
    lines.push('| Severity | Method | Path | Direction | Kind | Message |', '|---|---|---|---|---|---|');
    for (const f of report.findings) {
      const path = f.path === '' ? '' : `\`${markdownCell(f.path)}\``;
      lines.push(`| ${f.severity} | \`${markdownCell(f.method)}\` | ${path} | ${f.direction} | ${f.kind} | ${markdownCell(f.message)} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Renders a report; `json` is exactly the {@link SkewReport} shape. */
export function renderSkew(report: SkewReport, format: SkewFormat = 'text'): string {
  if (format === 'json') {
    const { client, server, breaking, findings } = report;
    return `${JSON.stringify({ client, server, breaking, findings }, null, 2)}\n`;
  }
  return format === 'md' ? renderMarkdown(report) : renderText(report);
}
