import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BindingRules } from '../binding/bindingRules.js';
import { ANNOTATION, checkTag, methodTag, REACHED_PREFIX } from '../checks/tags.js';
import type { Contract } from '../contracts/contractModel.js';
import { writeReplayFile } from '../replay/replayFile.js';
import { buildMatrix, type TestRecord } from '../report/matrixModel.js';
import type { Matrix } from '../report/matrixTypes.js';
import { renderHtml } from '../report/renderHtml.js';
import { renderJson } from '../report/renderJson.js';
import { renderJunit } from '../report/renderJunit.js';
import { renderMarkdown } from '../report/renderMarkdown.js';
import { findingKey, type FindingRecord } from './findings.js';
import { replayFileFor } from './findingReplay.js';
import type { ProxyWatch } from './proxyWatch.js';
import { skewSummary } from './skewSummary.js';

export interface ProxyReportInput {
  dir: string;
  watch: ProxyWatch;
  /** The upstream as displayed (redacted). */
  upstream: string;
  server: Contract;
  client?: Contract;
  bindings: BindingRules;
  startedAt: number;
  stoppedAt: number;
  /** Why the proxy stopped: SIGINT, --duration, the upstream went away. */
  reason: string;
}

export interface ProxyReport {
  matrix: Matrix;
  findings: FindingRecord[];
  skew: string[];
  /** The text printed on exit (also `summary.txt`). */
  summary: string;
}

const GENERATED = ['matrix.json', 'matrix.md', 'matrix.html', 'junit.xml', 'findings.json', 'summary.txt', 'transcripts', 'replays'];
const fileSafe = (text: string): string => text.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^_+|_+$/g, '') || 'subject';

function write(dir: string, relative: string, text: string): string {
  const path = join(dir, relative);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return relative;
}

/** One synthetic test record per judged cell, so that the matrix is built by the same model as `run`'s. */
function cellRecords(input: ProxyReportInput, links: Map<string, { transcript?: string; replay?: string }>): TestRecord[] {
  const { watch } = input;
  const bySubjectCheck = new Map<string, FindingRecord[]>();
  for (const record of watch.ledger.all) {
    const key = `${record.first.subject}\u0000${record.first.check}`;
    bySubjectCheck.set(key, [...(bySubjectCheck.get(key) ?? []), record]);
  }
  const seen = watch.judge.cells.flatMap((cell) =>
    cell.check === 'event.payload-schema' ? [`${REACHED_PREFIX.event}${cell.subject}`] : cell.check === 'server-request.envelope' ? [`${REACHED_PREFIX.serverRequest}${cell.subject}`] : [],
  );
  const reached = [...watch.judge.reached, ...seen].join(',');
  return watch.judge.cells.map((cell): TestRecord => {
    const found = bySubjectCheck.get(`${cell.subject}\u0000${cell.check}`) ?? [];
    const occurrences = found.reduce((sum, record) => sum + record.occurrences, 0);
    const first = found[0];
    const noun = cell.judged === 1 ? 'frame' : 'frames';
    const detail = first
      ? `${occurrences} of ${cell.judged} ${noun} broke the rule${found.length > 1 ? ` (${found.length} distinct paths)` : ''}: ${watch.redactor.redact(first.first.message)}`
      : `${cell.judged} ${noun} observed through the proxy, all conform`;
    const link = first ? links.get(findingKey(first.first)) : undefined;
    const annotations = [
      { type: ANNOTATION.detail, description: detail },
      ...(link?.transcript ? [{ type: ANNOTATION.transcriptFile, description: link.transcript }] : []),
      ...(link?.replay ? [{ type: ANNOTATION.replayFile, description: link.replay }] : []),
      ...(reached ? [{ type: ANNOTATION.reached, description: reached }] : []),
    ];
    return {
      tags: [methodTag(cell.subject), checkTag(cell.check)],
      outcome: first ? 'unexpected' : 'expected',
      expectedStatus: 'passed',
      status: first ? 'failed' : 'passed',
      annotations,
      errors: [],
    };
  });
}

function unjudgedLines(watch: ProxyWatch): string[] {
  const u = watch.judge.unjudged;
  const lines = [
    u.clientNotJson && `${u.clientNotJson} client frame(s) that are not JSON objects`,
    u.serverNotJson && `${u.serverNotJson} gateway frame(s) that are not JSON objects`,
    u.batches && `${u.batches} batch (array) frame(s)`,
    u.tooLarge && `${u.tooLarge} frame(s) over the judging limit`,
    watch.binaryFrames && `${watch.binaryFrames} binary frame(s)`,
    u.clientNotifications && `${u.clientNotifications} client notification(s)`,
    u.unattributedAnswers && `${u.unattributedAnswers} answer(s) to no request the proxy saw`,
    u.abandonedRequests && `${u.abandonedRequests} request(s) still unanswered when their client closed`,
    u.undeclaredEvents.size > 0 && `events the server contract does not declare: ${[...u.undeclaredEvents].map(([type, n]) => `${type} ×${n}`).join(', ')}`,
  ];
  return lines.filter((line): line is string => typeof line === 'string' && line !== '');
}

/**
 * Writes the usual report folder for what the proxy watched: matrix.json/.md/.html with a row per observed
 * method, event and server request, junit.xml, findings.json, summary.txt, the transcripts of the connections that
 * had findings and one replay file per finding.
 */
export function writeProxyReport(input: ProxyReportInput): ProxyReport {
  const { dir, watch, server, client } = input;
  for (const name of GENERATED) rmSync(join(dir, name), { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const links = new Map<string, { transcript?: string; replay?: string }>();
  const transcripts = new Map<string, string>();
  for (const [conn, record] of watch.connections) {
    if (watch.ledger.all.some((finding) => finding.connections.has(conn))) transcripts.set(conn, write(dir, `transcripts/${fileSafe(conn)}.txt`, record.log.render(conn, watch.redactor)));
  }
  const context = { upstream: input.upstream, contracts: [server.origin], profile: watch.options.profile, bindings: input.bindings, redactor: watch.redactor };
  const findings = watch.ledger.all;
  findings.forEach((record, index) => {
    const { first } = record;
    const replay = replayFileFor(record, watch.connections.get(first.conn), context);
    const link: { transcript?: string; replay?: string } = {};
    const transcript = transcripts.get(first.conn);
    if (transcript) link.transcript = transcript;
    if (replay) {
      link.replay = `replays/${String(index + 1).padStart(3, '0')}-${fileSafe(first.subject)}--${fileSafe(first.check)}.json`;
      writeReplayFile(join(dir, link.replay), replay);
    }
    links.set(findingKey(first), link);
  });
  const run = {
    target: `proxy → ${input.upstream}`,
    contracts: [server, ...(client ? [client] : [])].map((contract) => ({ title: contract.title, version: contract.version, path: contract.origin })),
    seed: null,
  };
  const matrix = buildMatrix(cellRecords(input, links), run, new Date(input.stoppedAt).toISOString());
  write(dir, 'matrix.json', renderJson(matrix));
  write(dir, 'matrix.md', renderMarkdown(matrix));
  write(dir, 'matrix.html', renderHtml(matrix));
  write(dir, 'junit.xml', renderJunit(matrix, 'contract-gate proxy'));
  const skew = skewSummary(watch.judge.skew.values(), server, client, watch.options.profile);
  const redact = (text: string): string => watch.redactor.redact(text);
  const findingsJson = findings.map((record) => ({
    at: new Date(record.first.at).toISOString(),
    conn: record.first.conn,
    subject: record.first.subject,
    check: record.first.check,
    kind: record.first.kind,
    path: record.first.path,
    message: redact(record.first.message),
    frame: redact(record.first.frame).slice(0, 4_096),
    occurrences: record.occurrences,
    connections: [...record.connections],
    ...links.get(findingKey(record.first)),
  }));
  write(dir, 'findings.json', `${JSON.stringify({ upstream: input.upstream, findings: findingsJson, skew }, null, 2)}\n`);
  const seconds = ((input.stoppedAt - input.startedAt) / 1000).toFixed(1);
  const unjudged = unjudgedLines(watch);
  const summary = [
    `contract-gate proxy stopped (${input.reason}) after ${seconds} s: ${watch.connectionsOpened} connection(s), ${watch.framesRelayed} frame(s) relayed, ${findings.length} finding(s) (${findings.reduce((n, r) => n + r.occurrences, 0)} occurrence(s))`,
    ...(skew.length > 0 ? ['version skew:', ...skew.map((line) => `  ${line}`)] : []),
    ...(unjudged.length > 0 ? ['relayed, not judged:', ...unjudged.map((line) => `  ${line}`)] : []),
    ...(watch.refusals.length > 0 ? ['upgrades not relayed:', ...watch.refusals.map((line) => `  ${line}`)] : []),
    `report: ${join(dir, 'matrix.md')} (matrix.json, matrix.html, junit.xml, findings.json, transcripts/, replays/)`,
  ].join('\n');
  write(dir, 'summary.txt', `${summary}\n`);
  return { matrix, findings, skew, summary };
}
