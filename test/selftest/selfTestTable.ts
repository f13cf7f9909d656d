import type { GatewayFault } from '../../gateway/index.js';

export interface TableRow {
  readonly fault: GatewayFault;
  /** The failing cells, as `subject × check`. */
  readonly detectedBy: readonly string[];
  /** Why more than the fault's own check fails. */
  readonly shared?: string;
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/**
 * The fault → detecting checks table (Markdown): one row per fault, the check meant for it in bold among the failing
 * cells, then why some faults fail more than one check.
 */
export function renderFaultTable(rows: readonly TableRow[]): string {
  const lines = ['| fault | what it breaks | failing cells (subject × check; the check meant for it in bold) |', '|---|---|---|'];
  for (const { fault, detectedBy } of rows) {
    const cells = detectedBy.map((key) => (key.endsWith(` × ${fault.check}`) ? `**${key}**` : key)).join('<br>');
    lines.push(`| \`${fault.name}\` | ${cell(fault.breaks)} | ${cell(cells || '(nothing failed)')} |`);
  }
  const byReason = new Map<string, string[]>();
  for (const row of rows) if (row.shared) byReason.set(row.shared, [...(byReason.get(row.shared) ?? []), `\`${row.fault.name}\``]);
  const notes = [...byReason].map(([reason, faults]) => `- ${faults.join(', ')}: ${reason}.`);
  return [...lines, ...(notes.length > 0 ? ['', 'Where a fault fails more than its own check, the checks judge the same thing:', '', ...notes] : [])].join('\n');
}
