import { ENVELOPE_CHECKS, isErrorAnswer, type EnvelopeCheckId } from '../checks/envelopeChecks.js';
import { classifyExchange, describeExchange } from '../checks/outcomeClass.js';
import { checkInvalidNotAccepted, checkUnknownKeyRejected, checkValidAccepted } from '../checks/paramsChecks.js';
import { checkResultSchema } from '../checks/resultChecks.js';
import { violation, type Violation } from '../checks/violation.js';
import type { Contract } from '../contracts/contractModel.js';
import { formatViolation, type SchemaViolation } from '../contracts/schemaValidators.js';
import { isJsonObject, outcomeOf, type Exchange, type JsonSchema } from '../../core/index.js';
import type { FrameFinding, ObservedRequest } from './findings.js';
import { CONNECTION_SUBJECT, type JudgeContext } from './judgeContext.js';
import type { FindingBase } from './judgeTally.js';
import { dottedPathOf, type RequestShape } from './requestShape.js';
import type { PendingServerRequest, WatchedConnection, WatchedRequest } from './watchedRequests.js';

const ENVELOPE_PATHS: Record<EnvelopeCheckId, string> = {
  'envelope.jsonrpc-version': 'jsonrpc',
  'envelope.id-echo': 'id',
  'envelope.result-xor-error': '(root)',
  'envelope.error-shape': 'error',
};

const ENVELOPE_JUDGES = Object.entries(ENVELOPE_CHECKS) as Array<[EnvelopeCheckId, (e: Exchange) => Violation[]]>;

/** `wellFormed`: whether the request was a Request object (JSON-RPC 2.0 §4); an Invalid Request may be answered with id null. */
function envelopeFindings(context: JudgeContext, base: FindingBase, exchange: Exchange, wellFormed: boolean): FrameFinding[] {
  return ENVELOPE_JUDGES.flatMap(([check, judge]) => {
    // As `run` counts it: an answer that is no error answer is not evidence of the error's shape.
    if (check === 'envelope.error-shape' && !isErrorAnswer(exchange)) return [];
    const violations = check === 'envelope.id-echo' && !wellFormed && answeredInvalidRequest(exchange) ? [] : judge(exchange);
    return context.tally.apply(base, check, violations, ENVELOPE_PATHS[check]);
  });
}

/**
 * An Invalid Request answer with id null: §5 gives null for the id of a request the server found invalid, and `run`
 * accepts that answer to its own such frames (`envelope.invalid-request`, `envelope.error-hygiene`).
 */
function answeredInvalidRequest(exchange: Exchange): boolean {
  const error = exchange.response?.['error'];
  return exchange.response?.['id'] === null && isJsonObject(error) && error['code'] === -32600;
}

function resultFindings(context: JudgeContext, base: FindingBase, exchange: Exchange, schema: JsonSchema): FrameFinding[] {
  const seen: SchemaViolation[] = [];
  const checker = context.validators.checker(schema);
  const violations = checkResultSchema(exchange, (value) => {
    const problems = checker(value);
    seen.push(...problems);
    return problems;
  });
  return context.tally.apply(base, 'result.schema', violations, () => (seen[0] ? dottedPathOf(seen[0], 'result') : 'result'));
}

/** The exchange of a watched request, before its answer (or failure) is added. */
export function exchangeOf(conn: string, request: ObservedRequest, at: number, correlation: Exchange['correlation']): Exchange {
  return { conn, method: request.method, id: request.id, params: request.params, requestText: request.text, elapsedMs: at - request.at, correlation };
}

/**
 * The answer to a watched request (or its failure when the gateway closed first), judged by the checks its request
 * class calls for, as `run` judges its own calls: envelope, params by shape, result schema, then skew.
 */
export function judgeAnswer(context: JudgeContext, conn: string, state: WatchedConnection, entry: WatchedRequest, exchange: Exchange, at: number, frame: string): FrameFinding[] {
  const { request, shape, clientShape } = entry;
  const { server, client } = context.options;
  // As `run` judges a method: the errors it declares are its domain errors, whatever their range.
  const profile = context.profileFor(request.method);
  const { tally } = context;
  const base = { conn, subject: request.method, kind: 'answer' as const, at, frame, request, ...(exchange.responseText !== undefined ? { answer: exchange.responseText } : {}) };
  if (shape.kind === 'undeclared') return judgeUndeclared(context, base, exchange, clientShape);
  const findings: FrameFinding[] = exchange.response ? envelopeFindings(context, base, exchange, request.wellFormed) : [];
  const outcome = outcomeOf(exchange);
  if (outcome.kind === 'result') {
    context.reached.add(request.method);
    const created = isJsonObject(outcome.result) ? outcome.result['session_id'] : undefined;
    const asked = isJsonObject(request.params) ? request.params['session_id'] : undefined;
    if (typeof created === 'string') {
      state.liveSessions.add(created);
      if (created !== asked && !state.lastEvent.has(created)) state.createdHere.add(created);
    }
  }
  if (context.isWireMethod(request.method)) return findings;
  const requestBase = { ...base, kind: 'request' as const, frame: request.text };
  switch (shape.kind) {
    case 'valid':
      findings.push(...tally.apply(base, 'params.valid-accepted', checkValidAccepted(exchange, profile), '(root)'));
      break;
    case 'unknown-key': {
      const named = shape.paths.find((path) => checkUnknownKeyRejected(exchange, path, profile).length === 0);
      const path = named ?? shape.paths[0] ?? '(root)';
      findings.push(...tally.apply(base, 'params.unknown-key-rejected', named ? [] : checkUnknownKeyRejected(exchange, path, profile), path));
      break;
    }
    case 'invalid': {
      const described = shape.problems.slice(0, 3).map(formatViolation).join('; ');
      findings.push(...tally.apply(base, 'params.invalid-not-accepted', checkInvalidNotAccepted(exchange, described), shape.paths[0] ?? '(root)'));
      break;
    }
  }
  const method = server.method(request.method);
  if (method?.resultSchema && outcome.kind === 'result') findings.push(...resultFindings(context, base, exchange, method.resultSchema));
  if (shape.kind !== 'valid') {
    const path = shape.paths[0] ?? '(root)';
    const clientAllows = clientShape ? clientShape.kind === 'valid' : undefined;
    context.skew.set(`${request.method}.${path}`, { method: request.method, path, ...(clientAllows !== undefined ? { clientAllows } : {}), answer: describeExchange(exchange), conn });
    if (clientAllows !== false) {
      const kind = classifyExchange(exchange, profile);
      const refused = kind === 'contract-rejection' || kind === 'unknown-method';
      const who = client ? `clients on ${client.title} ${client.version}` : 'clients that send what this client sends (pass --client-contract to name their version)';
      const line = `${request.method}.${path} (${describeExchange(exchange)})`;
      const found = refused ? [violation('skew.client-contract', `${who} would break: ${line}`, request.id)] : [];
      findings.push(...tally.apply(requestBase, 'skew.client-contract', found, path, { method: request.method, path }));
      return findings;
    }
  }
  if (client && clientShape) findings.push(...clientOwnContract(context, requestBase, client, clientShape));
  return findings;
}

/** With --client-contract: a request its own contract does not allow is a client defect, not skew. */
function clientOwnContract(context: JudgeContext, base: FindingBase, client: Contract, clientShape: RequestShape): FrameFinding[] {
  if (clientShape.kind === 'valid') return context.tally.apply(base, 'skew.client-contract', [], '(root)');
  const what = clientShape.kind === 'undeclared' ? 'a method it does not declare' : `params it does not allow: ${clientShape.problems.slice(0, 3).map(formatViolation).join('; ')}`;
  const message = `${base.subject}: the client sent ${what}, by its own contract (${client.title} ${client.version})`;
  return context.tally.apply(base, 'skew.client-contract', [violation('skew.client-contract', message)], clientShape.kind === 'undeclared' ? '(root)' : (clientShape.paths[0] ?? '(root)'));
}

/** A method the server contract does not declare must be answered -32601 (`envelope.unknown-method`). */
function judgeUndeclared(context: JudgeContext, base: FindingBase & { request: ObservedRequest }, exchange: Exchange, clientShape: RequestShape | undefined): FrameFinding[] {
  const { profile, client } = context.options;
  const method = base.request.method;
  const outcome = outcomeOf(exchange);
  const problems: Violation[] = [];
  if (outcome.kind !== 'error' || outcome.code !== -32601) {
    problems.push(violation('envelope.unknown-method', `${method} (undeclared by the server contract): expected -32601, got ${describeExchange(exchange)}`, base.request.id));
  } else if (!profile.unknownMethodMessageMatches(method, outcome.message)) {
    problems.push(violation('envelope.unknown-method', `${method}: -32601 message "${outcome.message}" is not "unknown method: ${method}" (with or without the out-of-sync suffix)`, base.request.id));
  }
  const findings = context.tally.apply({ ...base, subject: CONNECTION_SUBJECT }, 'envelope.unknown-method', problems, 'method');
  if (client && clientShape && clientShape.kind !== 'undeclared') {
    context.skew.set(method, { method, path: '', clientAllows: true, answer: describeExchange(exchange), conn: base.conn });
    const refused = classifyExchange(exchange, profile) === 'unknown-method';
    const found = refused ? [violation('skew.client-contract', `clients on ${client.title} ${client.version} would break: ${method} (${describeExchange(exchange)})`, base.request.id)] : [];
    findings.push(...context.tally.apply({ ...base, kind: 'request', frame: base.request.text }, 'skew.client-contract', found, '(root)', { method, path: '' }));
  }
  return findings;
}

/** An answer whose id was answered before: each request gets exactly one response (`envelope.id-echo`, as in `run`). */
export function judgeSecondAnswer(context: JudgeContext, conn: string, method: string, id: unknown, text: string, at: number): FrameFinding[] {
  const message = `${method}: request id ${JSON.stringify(id)} was answered again (${text.slice(0, 200)}); each request gets exactly one response`;
  return context.tally.apply({ conn, subject: method, kind: 'answer', at, frame: text }, 'envelope.id-echo', [violation('envelope.id-echo', message, id as Exchange['id'])], 'id');
}

/** The client's answer to a request of the gateway: its envelope, and its result against the declared schema. */
export function judgeServerRequestAnswer(context: JudgeContext, conn: string, asked: PendingServerRequest, frame: Record<string, unknown>, text: string, at: number, correlation: Exchange['correlation']): FrameFinding[] {
  const exchange: Exchange = {
    conn,
    method: asked.method,
    id: asked.id,
    params: asked.params,
    requestText: asked.text,
    elapsedMs: at - asked.at,
    response: frame,
    responseText: text,
    correlation,
  };
  const base = { conn, subject: asked.method, kind: 'server-request-answer' as const, at, frame: text };
  const findings = envelopeFindings(context, base, exchange, true);
  const resultSchema = asked.declared?.resultSchema;
  if (resultSchema && outcomeOf(exchange).kind === 'result') findings.push(...resultFindings(context, base, exchange, resultSchema));
  return findings;
}
