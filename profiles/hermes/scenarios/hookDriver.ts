import { isJsonObject, type WireEvent, type JsonObject } from '../../../core/index.js';
import { HOOK_WAIT_MS, type HookClient } from './hookObserver.js';

/** Creates a session and returns its runtime id; throws the target's error when refused. */
export async function createSession(owner: HookClient, params: JsonObject): Promise<string> {
  const result = await owner.request('session.create', params);
  if (!isJsonObject(result) || typeof result['session_id'] !== 'string') throw new Error(`session.create answered no string session_id: ${JSON.stringify(result).slice(0, 200)}`);
  return result['session_id'];
}

/** Creates a session and waits for the `session.info` that says its agent is built. */
export async function createBuilt(owner: HookClient, params: JsonObject): Promise<string> {
  const since = owner.events.length;
  const sessionId = await createSession(owner, params);
  await owner.events.waitFor({ type: 'session.info', sessionId, since }, HOOK_WAIT_MS);
  return sessionId;
}

/** Submits one prompt and waits for its `message.complete` (whatever its status); returns that event. */
export async function runTurn(owner: HookClient, sessionId: string, text: string): Promise<WireEvent> {
  const since = owner.events.length;
  await owner.request('prompt.submit', { session_id: sessionId, text });
  return owner.events.waitFor({ type: 'message.complete', sessionId, since }, HOOK_WAIT_MS);
}

/** Runs the turns in order; each must end with the status the fake agent gives it (`/fail` → error, else complete). */
export async function runTurns(owner: HookClient, sessionId: string, texts: readonly string[]): Promise<void> {
  for (const text of texts) {
    const complete = await runTurn(owner, sessionId, text);
    const status = isJsonObject(complete.payload) ? complete.payload['status'] : undefined;
    const expected = text.startsWith('/fail') ? 'error' : 'complete';
    if (status !== expected) throw new Error(`the turn "${text}" ended with status ${JSON.stringify(status)}, not ${expected} (the scenario needs the fake agent's echo and /fail)`);
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
