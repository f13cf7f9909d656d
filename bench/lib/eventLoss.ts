import { WebSocket } from 'ws';
import { startGateway } from '../../dist/gateway/index.js';

export interface EventLossResult {
  readonly connections: number;
  readonly callsPerConnection: number;
  /** Requests answered with an error or not answered at all. */
  readonly failedCalls: number;
  /** Events whose seq never reached the client (each session's seqs must arrive 1, 2, …, latest, once each). */
  readonly lostEvents: number;
  /** Events received twice or out of order. */
  readonly disorderedEvents: number;
  readonly elapsedMs: number;
}

type Frame = { id?: number; error?: unknown; result?: { session_id?: string; latest_seq?: number }; method?: string; params?: { session_id?: string; seq?: number } };

/**
 * `connections` clients each create a session and fire `calls` requests at once (prompts, history, pings and
 * replays, as the concurrency test does), then wait for the last turn: every event seq of every session must
 * have arrived exactly once, in order, and match the replay ring's latest seq.
 */
export async function eventLoss(connections = 50, calls = 200): Promise<EventLossResult> {
  const gateway = await startGateway({ buildDelayMs: 5 });
  const started = performance.now();
  try {
    const results = await Promise.all(Array.from({ length: connections }, (_, c) => oneClient(gateway.url, c, calls)));
    return {
      connections,
      callsPerConnection: calls,
      failedCalls: results.reduce((sum, r) => sum + r.failed, 0),
      lostEvents: results.reduce((sum, r) => sum + r.lost, 0),
      disorderedEvents: results.reduce((sum, r) => sum + r.disordered, 0),
      elapsedMs: performance.now() - started,
    };
  } finally {
    await gateway.close();
  }
}

async function oneClient(url: string, c: number, calls: number): Promise<{ failed: number; lost: number; disordered: number }> {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const pending = new Map<number, (frame: Frame) => void>();
  // Events are kept per session: the first can arrive in the same read as the create's answer, before the id is known.
  const seqsBySession = new Map<string, number[]>();
  let lastPromptDone: (() => void) | undefined;
  const lastText = `echo: c${c} p${calls - 4}`;
  socket.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as Frame & { params?: { type?: string; payload?: { text?: string } } };
    if (typeof frame.id === 'number') {
      pending.get(frame.id)?.(frame);
      pending.delete(frame.id);
      return;
    }
    const eventSession = frame.params?.session_id;
    if (frame.method !== 'event' || eventSession === undefined) return;
    const seqs = seqsBySession.get(eventSession) ?? [];
    seqsBySession.set(eventSession, seqs);
    seqs.push(frame.params?.seq ?? -1);
    if (frame.params?.type === 'message.complete' && frame.params.payload?.text === lastText) lastPromptDone?.();
  });
  let nextId = 0;
  const call = (method: string, params?: unknown): Promise<Frame> =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }));
    });
  const finished = new Promise<void>((resolve) => (lastPromptDone = resolve));
  const created = await call('session.create', {});
  const sessionId = created.result?.session_id;
  const answers = await Promise.all(
    Array.from({ length: calls }, (_, i) => {
      if (i % 4 === 0) return call('prompt.submit', { session_id: sessionId, text: `c${c} p${i}` });
      if (i % 4 === 1) return call('session.history', { session_id: sessionId });
      if (i % 4 === 2) return call('gateway.ping');
      return call('session.events.since', { session_id: sessionId, last_seen: 0 });
    }),
  );
  await Promise.race([finished, new Promise((resolve) => setTimeout(resolve, 30_000))]);
  const replay = await call('session.events.since', { session_id: sessionId, last_seen: 0 });
  socket.close();
  const latest = replay.result?.latest_seq ?? 0;
  const seqs = seqsBySession.get(sessionId ?? '') ?? [];
  const received = new Set(seqs);
  let lost = 0;
  for (let seq = 1; seq <= latest; seq++) if (!received.has(seq)) lost += 1;
  let disordered = 0;
  for (let i = 1; i < seqs.length; i++) if ((seqs[i] as number) <= (seqs[i - 1] as number)) disordered += 1;
  return { failed: answers.filter((frame) => frame.error !== undefined).length + (created.error ? 1 : 0), lost, disordered };
}
