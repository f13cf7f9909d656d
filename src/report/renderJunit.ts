import { evidenceAnnotations } from '../checks/evidence.js';
import { ANNOTATION } from '../checks/tags.js';
import type { Matrix, MatrixCell } from './matrixTypes.js';

const XML_ENTITIES: Readonly<Record<string, string>> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' };
const XML_SPECIAL = /[<>&"'\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

/** Text as XML attribute or element content: the five entities, and the control characters XML 1.0 forbids left out. */
const escapeXml = (text: string): string =>
  XML_SPECIAL.test(text) ? text.replace(/[<>&"']/g, (c) => XML_ENTITIES[c] as string).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '') : text;

/** A cell's evidence counts and attempts as JUnit properties (the names Playwright's JUnit reporter gives them). */
function junitProperties(cell: MatrixCell): string {
  const properties = [...(cell.evidence ? evidenceAnnotations(cell.evidence) : []), ...(cell.attempts ? [{ type: ANNOTATION.attempts, description: String(cell.attempts) }] : [])];
  if (properties.length === 0) return '';
  const items = properties.map(({ type, description }) => `        <property name="${escapeXml(type)}" value="${escapeXml(description)}"/>`);
  return `\n      <properties>\n${items.join('\n')}\n      </properties>`;
}

/** JUnit's `time`, in seconds, of what took `ms` milliseconds. */
const timeAttribute = (ms: number): string => ` time="${(ms / 1000).toFixed(3)}"`;

/**
 * JUnit XML of a matrix built outside the Playwright runner (the run engine's, the proxy's): one testsuite per
 * subject, one testcase per cell named `subject › check`, with the time its tests took where they were timed; fail
 * and stale cells fail, n/a and not-run cells are skipped.
 */
export function renderJunit(matrix: Matrix, suiteName = 'contract-gate'): string {
  const bySubject = new Map<string, MatrixCell[]>();
  for (const cell of matrix.cells) {
    const cells = bySubject.get(cell.method);
    if (cells) cells.push(cell);
    else bySubject.set(cell.method, [cell]);
  }
  const failures = matrix.cells.filter((cell) => cell.status === 'fail' || cell.status === 'stale').length;
  const skipped = matrix.cells.filter((cell) => cell.status === 'n/a' || cell.status === 'not-run').length;
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="${escapeXml(suiteName)}" tests="${matrix.cells.length}" failures="${failures}" skipped="${skipped}" errors="0">`];
  for (const [subject, cells] of bySubject) {
    const failed = cells.filter((cell) => cell.status === 'fail' || cell.status === 'stale').length;
    const skip = cells.filter((cell) => cell.status === 'n/a' || cell.status === 'not-run').length;
    const suiteTime = cells.some((cell) => cell.durationMs !== undefined) ? timeAttribute(cells.reduce((sum, cell) => sum + (cell.durationMs ?? 0), 0)) : '';
    lines.push(`  <testsuite name="${escapeXml(subject)}" tests="${cells.length}" failures="${failed}" skipped="${skip}" errors="0"${suiteTime} timestamp="${escapeXml(matrix.generatedAt)}">`);
    for (const cell of cells) {
      const properties = junitProperties(cell);
      const time = cell.durationMs === undefined ? '' : timeAttribute(cell.durationMs);
      const open = `    <testcase name="${escapeXml(`${subject} › ${cell.check}`)}" classname="${escapeXml(cell.check)}"${time}>${properties}`;
      const detail = escapeXml(cell.detail ?? cell.status);
      const links = [cell.transcript && `transcript: ${cell.transcript}`, cell.replay && `replay: npx contract-gate replay ${cell.replay}`, ...(cell.attachments ?? []).map((file) => `attachment: ${file}`)].filter(Boolean).join('\n');
      if (cell.status === 'fail' || cell.status === 'stale') lines.push(open, `      <failure message="${detail}">${escapeXml(links)}</failure>`, '    </testcase>');
      else if (cell.status === 'n/a' || cell.status === 'not-run') lines.push(open, `      <skipped message="${detail}"/>`, '    </testcase>');
      else if (properties) lines.push(open, '    </testcase>');
      else lines.push(`${open}</testcase>`);
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}
