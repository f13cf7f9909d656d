/**
 * The bare `ws` client our engine is measured against: it replays what the engine did on the wire (see
 * exchangeScript.ts), with no checks, no transcript, no records, one request in flight at a time.
 *
 * What it does because the engine did, so that both pay for the same exchanges:
 * - a connection per method run, opened and closed where the engine opened and closed one (a clean close,
 *   awaited, like the engine's), waiting for `gateway.ready` first where the engine waited for it;
 * - before a call, the event the engine waited for (`session.info` of the session it just created, a turn's
 *   `message.complete`) unless that frame already came on this connection (the engine's event log counts
 *   events that already arrived too). Sending on without it would be a call no real client can make: against an
 *   agent still being built, or a session with no turn, answered with a cheap error instead of doing the work;
 * - the ids the gateway issued (session ids, stored keys, saved paths) are random per gateway, so the engine's
 *   cannot be replayed as they are: each is read from this client's own answer at the place the engine's was
 *   found, and put where the engine put its own. That is what any client does with an id it is given.
 *
 * The answers' outcomes ('result' or the error code) are kept aside, compared with the engine's after the clock
 * stopped: a replay that did not get the same answers did not do the same work.
 */
import WebSocket from 'ws';
import { fill, learn, outcomeKind, type Replay } from './exchangeScript.js';

export interface BareLoopResult {
  calls: number;
  elapsedMs: number;
  connections: number;
  /** Calls whose outcome differs from the one the engine got (0 for a faithful replay). */
  mismatches: number;
}

const WAIT_TIMEOUT_MS = 10_000;

const eventKey = (type: string, sessionId: string | undefined): string => `${type}\u0000${sessionId ?? ''}`;

class BareConnection {
  private expected = '';
  private answered: ((frame: Record<string, unknown>) => void) | undefined;
  private readonly seen = new Set<string>();
  private awaited: { key: string; arrived: () => void } | undefined;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => this.onFrame(JSON.parse(data.toString()) as Record<string, unknown>));
  }

  static async open(url: string): Promise<BareConnection> {
    const socket = new WebSocket(url, { maxPayload: 256 * 1024 * 1024 });
    const connection = new BareConnection(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return connection;
  }

  request(id: string, text: string): Promise<Record<string, unknown>> {
    return new Promise((resolve) => {
      this.expected = id;
      this.answered = resolve;
      this.socket.send(text);
    });
  }

  event(type: string, sessionId: string | undefined): Promise<void> {
    const key = eventKey(type, sessionId);
    if (this.seen.has(key)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`bare loop: no ${type} for ${sessionId ?? 'the connection'} within ${WAIT_TIMEOUT_MS} ms`)), WAIT_TIMEOUT_MS);
      this.awaited = {
        key,
        arrived: () => {
          clearTimeout(timer);
          resolve();
        },
      };
    });
  }

  close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }

  private onFrame(frame: Record<string, unknown>): void {
    if (frame['method'] === 'event') {
      const params = frame['params'] as { type?: string; session_id?: string } | undefined;
      const type = params?.type ?? '';
      this.seen.add(eventKey(type, undefined));
      if (params?.session_id !== undefined) this.seen.add(eventKey(type, params.session_id));
      if (this.awaited && this.seen.has(this.awaited.key)) {
        const { arrived } = this.awaited;
        this.awaited = undefined;
        arrived();
      }
      return;
    }
    if (this.answered && 'id' in frame && JSON.stringify(frame['id']) === this.expected) {
      const done = this.answered;
      this.answered = undefined;
      done(frame);
    }
  }
}

/** Runs the replay against `url` (a gateway started fresh for it). */
export async function runBareLoop(url: string, replay: Replay): Promise<BareLoopResult> {
  const learnt = new Map<string, string>();
  const answers: Array<Record<string, unknown>> = [];
  let connection: BareConnection | undefined;
  let connections = 0;
  const started = performance.now();
  for (const step of replay.steps) {
    if (step.kind === 'open') {
      await connection?.close();
      connection = await BareConnection.open(url);
      connections++;
      if (step.waitsForReady) await connection.event('gateway.ready', undefined);
    } else if (step.kind === 'close') {
      await connection?.close();
      connection = undefined;
    } else {
      if (!connection) throw new Error('bare loop: a step before any connection was opened');
      if (step.kind === 'wait') {
        await connection.event(step.type, step.sessionId === undefined ? undefined : (learnt.get(step.sessionId) ?? step.sessionId));
      } else {
        const frame = await connection.request(step.id, fill(step.request, learnt));
        if (step.learns.length > 0) learn(step, frame, learnt);
        answers.push(frame);
      }
    }
  }
  const elapsedMs = performance.now() - started;
  await connection?.close();
  const mismatches = answers.filter((frame, index) => outcomeKind(frame) !== replay.outcomes[index]).length;
  return { calls: answers.length, elapsedMs, connections, mismatches };
}
