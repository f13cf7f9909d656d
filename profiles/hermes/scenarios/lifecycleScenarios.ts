import { randomBytes } from 'node:crypto';
import { requires } from '../../../src/run/requirements.js';
import { isJsonObject, jsonEqual, type JsonValue, type Outcome, outcomeOf } from '../../../core/index.js';
import type { RpcClient } from '../../../src/client/rpcClient.js';
import { aborted, Findings, type Connect, type ScenarioVerdict } from '../../../src/run/scenarioVerdict.js';
import { closeQuietly, createSession, runTurn } from './sessionDriver.js';
import { HermesErrorCode } from '../errorCodes.js';

const { DELETE_ACTIVE, STORED_SESSION_NOT_FOUND: STORED_NOT_FOUND } = HermesErrorCode;

const shown = (outcome: Outcome): string =>
  outcome.kind === 'result' ? `a success ${JSON.stringify(outcome.result).slice(0, 120)}` : outcome.kind === 'error' ? `error ${outcome.code} "${outcome.message}"` : outcome.kind === 'failure' ? outcome.failure.message : outcome.reason;

async function outcome(client: RpcClient, method: string, params: unknown): Promise<Outcome> {
  return outcomeOf(await client.call(method, params));
}

/**
 * `session.delete` of a stored id whose session is live answers 4023; after `session.close` it answers
 * `{deleted: id}`; a second delete answers 4007.
 */
export async function deleteLiveVerdict(connect: Connect): Promise<ScenarioVerdict> {
  const findings = new Findings('scenario.lifecycle-delete-live');
  let step = 'connect';
  let client: RpcClient | undefined;
  let sessionId: string | undefined;
  try {
    client = await connect({ name: 'a' });
    step = 'create a session and run a turn (the stored row appears on the first prompt)';
    const created = await createSession(client, { close_on_disconnect: true });
    sessionId = created.sessionId;
    const stored = created.storedId;
    if (!findings.expect(stored !== '', `session.create answered no stored_session_id: ${JSON.stringify(created.result).slice(0, 160)}`)) return findings.verdict('');
    await runTurn(client, created.sessionId, 'delete me later');
    step = 'delete while live';
    const live = await outcome(client, 'session.delete', { session_id: stored });
    findings.expect(live.kind === 'error' && live.code === DELETE_ACTIVE, `session.delete of ${stored} while its session ${created.sessionId} is live answered ${shown(live)}, not ${DELETE_ACTIVE} "cannot delete an active session"`);
    step = 'session.close';
    const closed = await client.request('session.close', { session_id: created.sessionId });
    findings.expect(isJsonObject(closed) && closed['closed'] === true, `session.close of the live session answered ${JSON.stringify(closed)}, not {closed: true}`);
    sessionId = undefined;
    step = 'delete after close';
    const deleted = await outcome(client, 'session.delete', { session_id: stored });
    findings.expect(deleted.kind === 'result' && isJsonObject(deleted.result) && deleted.result['deleted'] === stored, `session.delete of ${stored} after session.close answered ${shown(deleted)}, not {deleted: "${stored}"}`);
    step = 'delete again';
    const again = await outcome(client, 'session.delete', { session_id: stored });
    findings.expect(again.kind === 'error' && again.code === STORED_NOT_FOUND, `a second session.delete of ${stored} answered ${shown(again)}, not ${STORED_NOT_FOUND} "session not found"`);
    return findings.verdict(`delete while live: ${DELETE_ACTIVE}; after session.close: {deleted: "${stored}"}; again: ${STORED_NOT_FOUND}`);
  } catch (error) {
    return aborted('scenario.lifecycle-delete-live', step, error, findings.violations.map((v) => v.message));
  } finally {
    if (client && sessionId) await closeQuietly(client, sessionId);
    await client?.close().catch(() => undefined);
  }
}

interface Line {
  role: string;
  text: string;
}

/** The role and text of each transcript message: what "the same history" means across runtime ids. */
function lines(messages: JsonValue | undefined): Line[] | undefined {
  if (!Array.isArray(messages)) return undefined;
  return messages.map((message) => (isJsonObject(message) ? { role: String(message['role']), text: String(message['text'] ?? message['content'] ?? '') } : { role: '?', text: JSON.stringify(message) }));
}

const sameLines = (a: Line[] | undefined, b: Line[] | undefined): boolean => a !== undefined && b !== undefined && jsonEqual(a, b);

const render = (value: Line[] | undefined): string => (value === undefined ? 'no messages array' : JSON.stringify(value.map((line) => `${line.role}: ${line.text}`)).slice(0, 200));

/**
 * After a turn and `session.close`, the stored row resumes under a new runtime id with the same history, by its
 * stored id and by its exact title.
 */
export async function closeResumeVerdict(connect: Connect): Promise<ScenarioVerdict> {
  const findings = new Findings('scenario.lifecycle-close-resume');
  let step = 'connect';
  let client: RpcClient | undefined;
  const live: string[] = [];
  try {
    client = await connect({ name: 'a' });
    const title = `contract-gate resume ${randomBytes(4).toString('hex')}`;
    step = 'create a titled session and run a turn';
    const created = await createSession(client, { title, close_on_disconnect: true });
    live.push(created.sessionId);
    await runTurn(client, created.sessionId, 'remember me');
    step = 'session.history before the close';
    const history = await client.request('session.history', { session_id: created.sessionId });
    const before = lines(isJsonObject(history) ? history['messages'] : undefined);
    if (!findings.expect((before?.length ?? 0) > 0, `session.history after a turn answered ${JSON.stringify(history).slice(0, 160)}: no messages to compare`)) return findings.verdict('');
    step = 'session.close';
    await client.request('session.close', { session_id: created.sessionId });
    live.pop();
    const seen = new Set([created.sessionId]);
    for (const [how, key] of [
      ['stored id', created.storedId],
      ['exact title', title],
    ] as const) {
      step = `session.resume by ${how}`;
      const resumed = await client.request('session.resume', { session_id: key });
      const runtime = isJsonObject(resumed) ? resumed['session_id'] : undefined;
      if (!findings.expect(typeof runtime === 'string', `session.resume by ${how} answered no runtime session_id: ${JSON.stringify(resumed).slice(0, 160)}`) || !isJsonObject(resumed)) continue;
      const id = runtime as string;
      live.push(id);
      findings.expect(!seen.has(id), `session.resume by ${how} (${JSON.stringify(key)}) reused runtime id ${id}; a closed session must come back under a new one`);
      seen.add(id);
      const after = lines(resumed['messages']);
      findings.expect(sameLines(before, after), `session.resume by ${how}: history ${render(after)} differs from the history before the close ${render(before)}`);
      findings.expect(resumed['message_count'] === before?.length, `session.resume by ${how}: message_count ${JSON.stringify(resumed['message_count'])}, not ${before?.length ?? 0}`);
      step = `session.close of the session resumed by ${how}`;
      await client.request('session.close', { session_id: id });
      live.pop();
    }
    return findings.verdict(`after a turn and session.close, resume by stored id and by exact title gave new runtime ids (${[...seen].slice(1).join(', ')}) with the same ${before?.length ?? 0} messages`);
  } catch (error) {
    return aborted('scenario.lifecycle-close-resume', step, error, findings.violations.map((v) => v.message));
  } finally {
    for (const id of live) if (client) await closeQuietly(client, id);
    await client?.close().catch(() => undefined);
  }
}

/** The session methods each lifecycle scenario calls. */
export const LIFECYCLE_REQUIREMENTS = {
  deleteLive: requires(['session.create', 'prompt.submit', 'session.close', 'session.delete']),
  closeResume: requires(['session.create', 'prompt.submit', 'session.history', 'session.close', 'session.resume']),
} as const;
