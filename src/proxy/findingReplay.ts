import type { BindingRules } from '../binding/bindingRules.js';
import type { Redactor } from '../client/redact.js';
import type { CodeProfile } from '../checks/codeProfile.js';
import type { CaseRecord } from '../conformance/methodRunTypes.js';
import { buildReplayFile, type ReplayFile } from '../replay/replayFile.js';
import { isJsonObject, rpcIdKey, type JsonValue } from '../../core/index.js';
import type { FindingRecord } from './findings.js';
import type { ConnectionRecord } from './proxyWatch.js';

/** A replay that re-sends the client's frames of one connection, in order, and judges what comes back with the proxy's judge. */
export interface FrameReplayFile extends ReplayFile {
  frames: Array<{ text: string; afterMs: number; answer?: string }>;
  expect: { subject: string; check: string; path: string };
  /** How long after the last frame the finding was seen (the replay waits this long, plus a margin). */
  settleMs: number;
}

export function isFrameReplay(file: ReplayFile): file is FrameReplayFile {
  return Array.isArray((file as Partial<FrameReplayFile>).frames) && typeof (file as Partial<FrameReplayFile>).expect === 'object';
}

/** Checks `contract-gate replay` judges on one re-sent exchange. */
const EXCHANGE_CHECKS = new Set([
  'params.valid-accepted',
  'params.unknown-key-rejected',
  'params.invalid-not-accepted',
  'result.schema',
  'envelope.jsonrpc-version',
  'envelope.id-echo',
  'envelope.result-xor-error',
  'envelope.error-shape',
  'skew.client-contract',
]);

export interface ReplayContext {
  upstream: string;
  contracts: string[];
  profile: CodeProfile;
  bindings: BindingRules;
  redactor: Redactor;
}

/** Identifier fields of the client's payload that the binding rules know how to create again on another target. */
function substitutionsFor(method: string, payload: unknown, bindings: BindingRules): Record<string, string> {
  const rule = bindings.methods[method];
  if (!rule || !isJsonObject(payload)) return {};
  const out: Record<string, string> = {};
  for (const [field, template] of Object.entries({ ...rule.bindIfPresent, ...rule.set })) {
    if (field in payload && typeof template === 'string' && template.includes('${')) out[field] = template;
  }
  return out;
}

function exchangeReplay(record: FindingRecord, context: ReplayContext): ReplayFile | undefined {
  const { first } = record;
  const request = first.request;
  if (!request || request.method !== first.subject || !EXCHANGE_CHECKS.has(first.check)) return undefined;
  // A request outside the client's own contract is a client defect: a target has nothing to reproduce.
  if (first.check === 'skew.client-contract' && !first.skew) return undefined;
  const payload = (request.params ?? {}) as JsonValue;
  const probed = first.check === 'params.unknown-key-rejected' || first.check === 'skew.client-contract';
  const caseRecord: CaseRecord = {
    phase: probed ? 'unknown-key' : first.check === 'params.invalid-not-accepted' ? 'invalid' : 'valid',
    generated: payload,
    payload,
    exchange: {
      conn: first.conn,
      method: request.method,
      id: request.id,
      params: request.params,
      requestText: request.text,
      elapsedMs: 0,
      ...(first.answer !== undefined ? { responseText: first.answer } : { failure: { code: 'CONNECTION_CLOSED' as const, message: first.message } }),
      correlation: 'exact',
    },
    substitutions: substitutionsFor(request.method, payload, context.bindings),
    ...(probed ? { probe: { dottedPath: first.path, policy: 'closed' as const, key: first.path.split('.').at(-1) ?? first.path } } : {}),
    ...(first.check === 'params.invalid-not-accepted' ? { mutation: { kind: 'observed', dottedPath: first.path, description: first.message } } : {}),
  };
  return buildReplayFile({
    target: context.upstream,
    embedded: false,
    contracts: context.contracts,
    profile: context.profile.label,
    check: first.check,
    counterexample: { seed: 0, shrinks: 0, record: caseRecord },
    bindings: context.bindings,
    violation: first.message,
    redactor: context.redactor,
  });
}

function idOf(text: string): unknown {
  try {
    const frame = JSON.parse(text) as unknown;
    return isJsonObject(frame) && !('method' in frame) ? frame['id'] : undefined;
  } catch {
    return undefined;
  }
}

function frameReplay(record: FindingRecord, connection: ConnectionRecord, context: ReplayContext): FrameReplayFile {
  const { first } = record;
  const sent = connection.log.replayFrames().filter((frame) => frame.at <= first.at);
  const received = connection.log.transcript(connection.conn, context.redactor).filter((entry) => entry.dir === '<<').map((entry) => ({ text: entry.text, id: idOf(entry.text) }));
  let previous = connection.log.openedAt;
  const frames = sent.map((frame) => {
    let id: unknown;
    try {
      const parsed = JSON.parse(frame.text) as unknown;
      id = isJsonObject(parsed) && typeof parsed['method'] === 'string' ? parsed['id'] : undefined;
    } catch {
      id = undefined;
    }
    const key = rpcIdKey(id);
    const answer = key === undefined ? undefined : received.find((r) => rpcIdKey(r.id) === key)?.text;
    const entry = { text: context.redactor.redact(frame.text), afterMs: Math.max(0, frame.at - previous), ...(answer !== undefined ? { answer: context.redactor.redact(answer) } : {}) };
    previous = frame.at;
    return entry;
  });
  const base = buildReplayFile({
    target: context.upstream,
    embedded: false,
    contracts: context.contracts,
    profile: context.profile.label,
    check: first.check,
    counterexample: {
      seed: 0,
      shrinks: 0,
      record: {
        phase: 'valid',
        generated: null,
        payload: null,
        exchange: { conn: first.conn, method: first.subject, id: null, params: null, requestText: sent.at(-1)?.text ?? '', elapsedMs: 0, responseText: first.frame, correlation: 'none' },
        substitutions: {},
      },
    },
    bindings: { origin: 'proxy', resources: {}, methods: {}, eventDrivers: [] },
    violation: first.message,
    redactor: context.redactor,
  });
  return { ...base, frames, expect: { subject: first.subject, check: first.check, path: first.path }, settleMs: Math.max(0, first.at - previous) };
}

/**
 * The replay file of a finding: the client's request re-sent on its own (identifier fields re-created on the
 * target from the binding rules) when one exchange shows it; otherwise the client's frames of the connection up to
 * the finding, re-sent in order with the ids the target hands out spliced in.
 */
export function replayFileFor(record: FindingRecord, connection: ConnectionRecord | undefined, context: ReplayContext): ReplayFile | undefined {
  const single = exchangeReplay(record, context);
  if (single) return single;
  if (record.first.check === 'skew.client-contract') return undefined;
  return connection ? frameReplay(record, connection, context) : undefined;
}
