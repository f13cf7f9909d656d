import type { CheckId } from '../../../src/checks/checkCatalogue.js';
import { REACHED_PREFIX } from '../../../src/checks/tags.js';
import type { RpcClient } from '../../../src/client/rpcClient.js';
import type { ServerRequestHandler, ServerRequestRecord } from '../../../src/client/serverRequests.js';
import type { Contract, ContractMethod } from '../../../src/contracts/contractModel.js';
import type { SchemaValidators } from '../../../src/contracts/schemaValidators.js';
import { serverRequestProblems } from '../../../src/checks/serverRequestChecks.js';
import { isJsonObject, type WireEvent, type JsonValue } from '../../../core/index.js';
import { answerValue } from '../../../src/run/serverRequestAnswers.js';
import { aborted, Findings, type Connect, type ScenarioVerdict } from '../../../src/run/scenarioVerdict.js';
import { createSession, ScenarioConnections, startTurn, TURN_TIMEOUT_MS, waitBuilt } from './sessionDriver.js';

/** The server request under test, with what judging it needs. */
export interface ServerRequestSubject {
  contract: Contract;
  request: ContractMethod;
  validators: SchemaValidators;
  seed: number;
}

/** The reference gateway's directive: a turn whose text starts with it asks the session's owner that request. */
export const requestDirective = (method: string): string => `/request ${method}`;

/** How long to keep listening for a second `request.cancel` after the first one arrived. */
const SECOND_CANCEL_GRACE_MS = 300;
const POLL_MS = 10;

/** Waits until `client` has received a server request for `method` after `since` (index in its log). */
export async function waitServerRequest(client: RpcClient, method: string, since: number, timeoutMs = TURN_TIMEOUT_MS): Promise<ServerRequestRecord> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = client.serverRequests.slice(since).find((record) => record.method === method);
    if (found) return found;
    if (Date.now() >= deadline) throw new Error(`no server request ${method} arrived within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

type Step = { name: string };

/** One connection, one session, one `/request` turn; `body` judges it. The session is closed afterwards. */
async function withAskingSession(
  connect: Connect,
  check: CheckId,
  options: { answer?: ServerRequestHandler; closeOnDisconnect?: boolean },
  body: (client: RpcClient, sessionId: string, storedId: string, findings: Findings, step: Step, connections: ScenarioConnections) => Promise<string>,
): Promise<ScenarioVerdict> {
  const findings = new Findings(check);
  const connections = new ScenarioConnections((o) =>
    connect({ ...o, ...(options.answer ? { answerServerRequest: options.answer } : { answerServerRequest: undefined, unhandledServerRequests: 'ignore' as const }) }),
  );
  const step: Step = { name: 'connect' };
  let sessionId: string | undefined;
  try {
    const client = await connections.open('a');
    step.name = 'session.create';
    const created = await createSession(client, options.closeOnDisconnect === false ? { close_on_disconnect: false } : {});
    sessionId = created.sessionId;
    step.name = 'wait for session.info (agent built)';
    await waitBuilt(client, sessionId);
    const passDetail = await body(client, sessionId, created.storedId, findings, step, connections);
    return findings.verdict(passDetail);
  } catch (error) {
    return aborted(check, step.name, error, findings.notes);
  } finally {
    await connections.closeAll(sessionId);
  }
}

function cancelsOf(events: readonly WireEvent[], id: JsonValue): WireEvent[] {
  return events.filter((event) => event.type === 'request.cancel' && isJsonObject(event.payload) && event.payload['id'] === id);
}

/** Waits for the turn's `message.complete` and reports an `error` event of the session on the way. */
async function turnFinished(client: RpcClient, sessionId: string, since: number, findings: Findings, what: string): Promise<void> {
  await client.events.waitFor({ type: 'message.complete', sessionId, since }, TURN_TIMEOUT_MS).catch(() => findings.fail(`${what}: the turn did not finish within ${TURN_TIMEOUT_MS} ms`));
  const errors = client.events.all({ sessionId, since }).filter((event) => event.type === 'error');
  for (const error of errors) findings.fail(`${what}: the turn emitted error ${JSON.stringify(error.payload).slice(0, 200)}`);
}

/** `server-request.envelope`: the frame the gateway sends when a turn asks. */
export async function envelopeVerdict(connect: Connect, subject: ServerRequestSubject, answer: ServerRequestHandler): Promise<ScenarioVerdict> {
  const method = subject.request.name;
  let received = false;
  const verdict = await withAskingSession(connect, 'server-request.envelope', { answer }, async (client, sessionId, _stored, findings, step) => {
    step.name = `prompt.submit "${requestDirective(method)}"`;
    const since = client.serverRequests.length;
    await startTurn(client, sessionId, requestDirective(method));
    step.name = `wait for the ${method} server request`;
    const record = await waitServerRequest(client, method, since);
    received = true;
    for (const problem of serverRequestProblems(record.frame, subject, new Set([sessionId]))) findings.fail(`${method}: ${problem}`);
    return `${method} arrived as {id: ${JSON.stringify(record.id)}, params valid, session_id of the asking session}`;
  });
  return received ? { ...verdict, reached: [`${REACHED_PREFIX.serverRequest}${method}`] } : verdict;
}

/** `server-request.answer-accepted`: a schema-valid answer lets the asking turn finish cleanly. */
export function answerAcceptedVerdict(connect: Connect, subject: ServerRequestSubject, answer: ServerRequestHandler): Promise<ScenarioVerdict> {
  const method = subject.request.name;
  return withAskingSession(connect, 'server-request.answer-accepted', { answer }, async (client, sessionId, _stored, findings, step) => {
    step.name = `prompt.submit "${requestDirective(method)}"`;
    const since = client.events.length;
    const asked = client.serverRequests.length;
    await startTurn(client, sessionId, requestDirective(method));
    step.name = `wait for the ${method} server request`;
    const record = await waitServerRequest(client, method, asked);
    step.name = 'wait for the turn to finish';
    await turnFinished(client, sessionId, since, findings, `after a schema-valid answer to ${method}`);
    findings.expect(record.status === 'answered' && record.sent !== false, `the ${method} answer was not sent (status ${record.status}${record.note ? `: ${record.note}` : ''})`);
    findings.note(`answer: ${JSON.stringify(record.answer).slice(0, 300)}`);
    return `a schema-valid answer to ${method} let the turn finish`;
  });
}

/** `server-request.cancel`: an unanswered request is withdrawn exactly once when its session closes. */
export function cancelVerdict(connect: Connect, subject: ServerRequestSubject): Promise<ScenarioVerdict> {
  const method = subject.request.name;
  return withAskingSession(connect, 'server-request.cancel', {}, async (client, sessionId, _stored, findings, step) => {
    step.name = `prompt.submit "${requestDirective(method)}" (left unanswered)`;
    const since = client.events.length;
    await startTurn(client, sessionId, requestDirective(method));
    step.name = `wait for the ${method} server request`;
    const record = await waitServerRequest(client, method, 0);
    step.name = 'session.close';
    await client.request('session.close', { session_id: sessionId });
    await client.events.waitFor({ type: 'request.cancel', sessionId, since }, TURN_TIMEOUT_MS).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, SECOND_CANCEL_GRACE_MS));
    const cancels = cancelsOf(client.events.all({ sessionId, since }), record.id);
    findings.expect(cancels.length === 1, `closing the session with ${method} ${JSON.stringify(record.id)} unanswered gave ${cancels.length} request.cancel events for it; exactly one is due`);
    for (const cancel of cancels) {
      const payload = cancel.payload as Record<string, unknown>;
      findings.expect(payload['method'] === method, `request.cancel for ${JSON.stringify(record.id)} names method ${JSON.stringify(payload['method'])}, not ${method}`);
    }
    const reason = cancels[0] && isJsonObject(cancels[0].payload) ? cancels[0].payload['reason'] : undefined;
    return `one request.cancel {id: ${JSON.stringify(record.id)}, method: ${method}, reason: ${JSON.stringify(reason)}}`;
  });
}

/** `server-request.open-on-resume`: after a drop, resume lists the open request and an answer on the new connection finishes the turn. */
export function openOnResumeVerdict(connect: Connect, subject: ServerRequestSubject): Promise<ScenarioVerdict> {
  const method = subject.request.name;
  return withAskingSession(connect, 'server-request.open-on-resume', { closeOnDisconnect: false }, async (a, sessionId, storedId, findings, step, connections) => {
    step.name = `prompt.submit "${requestDirective(method)}" on A (left unanswered)`;
    await startTurn(a, sessionId, requestDirective(method));
    step.name = `wait for the ${method} server request`;
    const record = await waitServerRequest(a, method, 0);
    step.name = 'drop A';
    a.terminate();
    await a.closed.catch(() => undefined);
    step.name = 'connect B';
    const b = await connections.open('b');
    step.name = 'session.resume on B';
    const resumed = await b.request('session.resume', { session_id: storedId || sessionId });
    const open = isJsonObject(resumed) && Array.isArray(resumed['open_requests']) ? resumed['open_requests'] : undefined;
    const listed = open?.find((entry) => isJsonObject(entry) && entry['id'] === record.id);
    if (!findings.expect(listed !== undefined, `session.resume after the drop lists open_requests ${JSON.stringify(open ?? null).slice(0, 200)}; the unanswered ${method} ${JSON.stringify(record.id)} is missing`)) {
      return '';
    }
    findings.expect(isJsonObject(listed) && listed['method'] === method, `open_requests lists ${JSON.stringify(record.id)} with method ${JSON.stringify(isJsonObject(listed) ? listed['method'] : null)}, not ${method}`);
    const runtime = isJsonObject(resumed) && typeof resumed['session_id'] === 'string' ? resumed['session_id'] : sessionId;
    step.name = `answer ${method} on B`;
    const since = b.events.length;
    b.sendRaw(JSON.stringify({ jsonrpc: '2.0', id: record.id, result: answerValue(subject.contract, subject.request, subject.seed) }));
    step.name = 'wait for the turn to finish on B';
    await turnFinished(b, runtime, since, findings, `after answering ${method} on the new connection`);
    return `session.resume listed ${method} ${JSON.stringify(record.id)}; answering it on the new connection finished the turn`;
  });
}
