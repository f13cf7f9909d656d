import { allOptionalValue } from '../../../fuzz/index.js';
import { describeOutcome, editAt, isJsonObject, type JsonPath, type JsonValue, type Outcome, outcomeOf, valueAt } from '../../../core/index.js';
import type { CodeProfile } from '../../../src/checks/codeProfile.js';
import type { RpcClient } from '../../../src/client/rpcClient.js';
import type { Contract } from '../../../src/contracts/index.js';
import { analyseSkew, type SkewReport } from '../../../src/skew/index.js';
import { aborted, Findings, type Connect, type ScenarioVerdict } from '../../../src/run/scenarioVerdict.js';
import { closeQuietly } from './sessionDriver.js';

/** One live probe: a payload carrying a key predicted to break, or the control payload without any of them. */
export interface SkewObservation {
  method: string;
  /** The probed key's dotted path; `` for the control payload. */
  path: string;
  predicted: 'rejected' | 'accepted';
  observed: 'rejected' | 'accepted' | 'other';
  /** For a rejection: whether it names the probed path (control: the path it names, when readable). */
  namesPath: boolean;
  namedPath?: string;
  outcome: string;
}

export interface SkewRow extends SkewObservation {
  agree: boolean;
  /** Why predicted and observed disagree. */
  reason?: string;
}

const HERMES_EXTRA = /^invalid params for [^:]+: ([^:\s]+): Extra inputs are not permitted/;

/** Dotted Pydantic path → JSON path (numeric segments are array indexes). */
export function pathOf(dotted: string): JsonPath {
  return dotted.split('.').map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}

/** Classifies a probe's outcome under the profile: contract rejection, acceptance (success or domain error), or anything else. */
export function observe(method: string, path: string, predicted: SkewObservation['predicted'], outcome: Outcome, profile: CodeProfile): SkewObservation {
  const base = { method, path, predicted, outcome: describeOutcome(outcome) };
  if (outcome.kind === 'result') return { ...base, observed: 'accepted', namesPath: false };
  if (outcome.kind !== 'error') return { ...base, observed: 'other', namesPath: false };
  if (profile.isContractRejection(outcome.code)) {
    const named = HERMES_EXTRA.exec(outcome.message)?.[1];
    const namesPath = path !== '' && outcome.code === profile.unknownKeyCode && profile.unknownKeyMessageMatches(method, path, outcome.message, outcome.data);
    return { ...base, observed: 'rejected', namesPath, ...(named ? { namedPath: named } : {}) };
  }
  return { ...base, observed: profile.isDomainError(outcome.code) ? 'accepted' : 'other', namesPath: false };
}

/** Predicted against observed, row by row; a disagreement in either direction is reported with its reason. */
export function compareSkew(observations: readonly SkewObservation[]): { rows: SkewRow[]; disagreements: SkewRow[] } {
  const rows = observations.map((o): SkewRow => {
    if (o.predicted === 'rejected') {
      if (o.observed === 'rejected' && o.namesPath) return { ...o, agree: true };
      if (o.observed === 'rejected') return { ...o, agree: false, reason: `predicted break on ${o.path} observed as a rejection naming ${o.namedPath ?? 'something else'} (${o.outcome})` };
      return { ...o, agree: false, reason: `predicted break on ${o.path} not observed: ${o.outcome}` };
    }
    if (o.observed === 'accepted') return { ...o, agree: true };
    if (o.observed === 'rejected') return { ...o, agree: false, reason: `observed break not predicted${o.namedPath ? ` on ${o.namedPath}` : ''}: ${o.outcome}` };
    return { ...o, agree: false, reason: `predicted acceptance, observed ${o.outcome}` };
  });
  return { rows, disagreements: rows.filter((row) => !row.agree) };
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderSkewTable(rows: readonly SkewRow[], report: SkewReport): string {
  const lines = [
    `predicted (analyseSkew, client v${report.client.version} → server v${report.server.version}) vs observed`,
    '',
    '| method | payload | predicted | observed | agree |',
    '|---|---|---|---|---|',
    ...rows.map((row) => `| ${row.method} | ${row.path === '' ? 'without the predicted keys' : `carries ${row.path}`} | ${row.predicted === 'rejected' ? `rejected naming ${row.path}` : 'accepted'} | ${cell(row.observed === 'rejected' ? `rejected${row.namedPath ? ` naming ${row.namedPath}` : ''}: ${row.outcome}` : row.outcome)} | ${row.agree ? 'yes' : `NO: ${cell(row.reason ?? '')}`} |`),
  ];
  return lines.join('\n');
}

function without(payload: JsonValue, paths: readonly string[]): JsonValue {
  let current = payload;
  for (const path of [...paths].sort().reverse()) {
    if (valueAt(current, pathOf(path)) !== undefined) current = editAt(current, pathOf(path), () => undefined);
  }
  return current;
}

function carrying(payload: JsonValue, path: string): JsonValue {
  if (valueAt(payload, pathOf(path)) !== undefined) return payload;
  const steps = pathOf(path);
  const parent = valueAt(payload, steps.slice(0, -1));
  // The server rejects an undeclared key whatever its value, so null serves when the rich payload lacks the key.
  return isJsonObject(parent) ? editAt(payload, steps, () => null) : payload;
}

async function probe(client: RpcClient, method: string, params: JsonValue): Promise<Outcome> {
  const outcome = outcomeOf(await client.call(method, params));
  if (outcome.kind === 'result' && isJsonObject(outcome.result) && typeof outcome.result['session_id'] === 'string' && method === 'session.create') {
    await closeQuietly(client, outcome.result['session_id']);
  }
  return outcome;
}

export interface SkewProbeResult extends ScenarioVerdict {
  table: string;
  rows: SkewRow[];
}

/**
 * `skew.predicted-observed`: for every breaking `param-unknown-to-server` finding the analyser predicts for
 * (client → target), the client payload carrying that key must be rejected naming its path; for the same methods
 * (and `session.create`, the desktop's first call, always), the client's payload without the predicted keys must
 * be accepted.
 */
export async function skewProbeVerdict(connect: Connect, options: { client: Contract; target: Contract; profile: CodeProfile; alwaysProbe?: readonly string[] }): Promise<SkewProbeResult> {
  const report = analyseSkew(options.client, options.target, { serverCodes: options.profile });
  const breaks = report.findings.filter((f) => f.kind === 'param-unknown-to-server' && f.severity === 'breaking');
  const methods = [...new Set([...breaks.map((f) => f.method), ...(options.alwaysProbe ?? ['session.create'])])].filter((m) => options.client.method(m) && options.target.method(m));
  const findings = new Findings('skew.predicted-observed');
  const observations: SkewObservation[] = [];
  let step = 'connect';
  let client: RpcClient | undefined;
  try {
    client = await connect({ name: 'skew' });
    for (const method of methods) {
      const declared = options.client.method(method);
      if (!declared) continue;
      const rich = allOptionalValue(declared.paramsSchema, { resolver: options.client.resolver });
      const keys = breaks.filter((f) => f.method === method).map((f) => f.path);
      for (const path of keys) {
        step = `${method} carrying ${path}`;
        const payload = carrying(without(rich, keys.filter((other) => other !== path)), path);
        observations.push(observe(method, path, 'rejected', await probe(client, method, payload), options.profile));
      }
      step = `${method} without the predicted keys`;
      observations.push(observe(method, '', 'accepted', await probe(client, method, without(rich, keys)), options.profile));
    }
  } catch (error) {
    return { ...aborted('skew.predicted-observed', step, error), table: '', rows: [] };
  } finally {
    await client?.close().catch(() => undefined);
  }
  const { rows, disagreements } = compareSkew(observations);
  const table = renderSkewTable(rows, report);
  for (const row of disagreements) findings.fail(`${row.method}: ${row.reason ?? ''}`);
  const predicted = rows.filter((row) => row.predicted === 'rejected').length;
  const summary = predicted === 0 ? `no break predicted for client v${report.client.version} → server v${report.server.version}` : `${predicted} predicted break(s) (${rows.filter((row) => row.predicted === 'rejected').map((row) => `${row.method} ${row.path}`).join(', ')}) all observed`;
  const verdict = findings.verdict(`${summary}; ${rows.filter((row) => row.predicted === 'accepted').length} payload(s) without predicted keys accepted (${methods.join(', ')})`);
  return { ...verdict, context: [table, ...(verdict.context ?? [])], table, rows };
}
