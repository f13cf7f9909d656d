import type { RpcClient } from '../../../src/client/rpcClient.js';
import { isJsonObject, type WireEvent, type JsonObject } from '../../../core/index.js';

/** How long a scenario waits for one turn or one event of the fake agent (real gateways stream faster than this). */
export const TURN_TIMEOUT_MS = 5_000;

export interface CreatedSession {
  /** Runtime id (routes events). */
  sessionId: string;
  /** Durable key (resume, delete). */
  storedId: string;
  result: JsonObject;
}

/** Creates a session and returns its ids; throws the gateway's RpcError when refused. */
export async function createSession(client: RpcClient, params: JsonObject): Promise<CreatedSession> {
  const result = await client.request('session.create', params);
  if (!isJsonObject(result) || typeof result['session_id'] !== 'string') {
    throw new Error(`session.create answered a result without a string session_id: ${JSON.stringify(result).slice(0, 200)}`);
  }
  const storedId = typeof result['stored_session_id'] === 'string' ? result['stored_session_id'] : '';
  return { sessionId: result['session_id'], storedId, result };
}

/** Waits for the `session.info` that says the agent is built (it follows the create reply). */
export async function waitBuilt(client: RpcClient, sessionId: string, timeoutMs = TURN_TIMEOUT_MS): Promise<WireEvent> {
  return client.events.waitFor({ type: 'session.info', sessionId }, timeoutMs);
}

export const isTurnEnd = (event: WireEvent): boolean => event.type === 'message.complete';

/**
 * Submits one prompt and waits for its `message.complete` on `client`; returns every event of the session that
 * `client` received from the submit on.
 */
export async function runTurn(client: RpcClient, sessionId: string, text: string, timeoutMs = TURN_TIMEOUT_MS): Promise<WireEvent[]> {
  const since = client.events.length;
  await client.request('prompt.submit', { session_id: sessionId, text });
  await client.events.waitFor({ type: 'message.complete', sessionId, since }, timeoutMs);
  return client.events.all({ sessionId, since });
}

/** Submits a prompt without waiting for it to finish (a `/slow` turn that a scenario interrupts with a drop). */
export async function startTurn(client: RpcClient, sessionId: string, text: string): Promise<number> {
  const since = client.events.length;
  await client.request('prompt.submit', { session_id: sessionId, text });
  return since;
}

/** The highest seq `client` received live for a session (0 when none). */
export function highestSeq(client: RpcClient, sessionId: string): number {
  return client.events.all({ sessionId }).reduce((max, event) => (typeof event.seq === 'number' && event.seq > max ? event.seq : max), 0);
}

/** The `cwd` a session reports: the create result's `info.cwd`, else the `session.info` payload's. */
export async function sessionCwd(client: RpcClient, created: CreatedSession, timeoutMs = TURN_TIMEOUT_MS): Promise<string | undefined> {
  const info = created.result['info'];
  if (isJsonObject(info) && typeof info['cwd'] === 'string') return info['cwd'];
  const event = await waitBuilt(client, created.sessionId, timeoutMs).catch(() => undefined);
  const payload = event?.payload;
  return isJsonObject(payload) && typeof payload['cwd'] === 'string' ? payload['cwd'] : undefined;
}

/** Closes a session, ignoring every failure (cleanup only). */
export async function closeQuietly(client: RpcClient, sessionId: string): Promise<void> {
  if (client.isOpen) await client.call('session.close', { session_id: sessionId }, { timeoutMs: 2_000 });
}

/** The connections one scenario opened, so that teardown can close its session from the last one and then all of them. */
export class ScenarioConnections {
  private readonly opened: RpcClient[] = [];

  constructor(private readonly connect: (options: { name: string }) => Promise<RpcClient>) {}

  async open(name: string): Promise<RpcClient> {
    const connection = await this.connect({ name });
    this.opened.push(connection);
    return connection;
  }

  /** Closes `sessionId` from the newest open connection (best effort), then every connection. */
  async closeAll(sessionId: string | undefined): Promise<void> {
    const last = this.opened[this.opened.length - 1];
    if (last?.isOpen && sessionId) await closeQuietly(last, sessionId);
    await Promise.all(this.opened.map((connection) => connection.close().catch(() => undefined)));
  }
}
