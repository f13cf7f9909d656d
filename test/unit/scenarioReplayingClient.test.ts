import { expect, test } from './helpers/test.js';
import { EventLog } from '../../src/client/eventLog.js';
import type { WireEvent, JsonValue } from '../../core/index.js';
import { REPLAY_GAP_EVENT, ReplayingClient, type ReplaySource } from '../../profiles/hermes/scenarios/replayingClient.js';
import { judgeDelivery, judgeReplay } from '../../profiles/hermes/scenarios/replayJudge.js';

const ev = (session: string, seq: number, type = 'message.delta', payload: JsonValue = { text: `t${seq}` }): WireEvent => ({ type, session_id: session, payload, seq });
const seqs = (client: ReplayingClient, session = 's'): number[] => client.delivered.filter((e) => e.session_id === session && typeof e.seq === 'number').map((e) => e.seq as number);

/** A socket stand-in: an event log fed by hand and a scripted `session.events.since`. */
class FakeSource implements ReplaySource {
  readonly events = new EventLog(1_000);
  readonly calls: Array<{ method: string; params: unknown }> = [];
  answer: (params: { session_id: string; last_seen: number }) => Promise<unknown> = async () => ({});

  constructor(readonly ready: WireEvent | undefined) {}

  static withEpoch(epoch: string): FakeSource {
    return new FakeSource({ type: 'gateway.ready', payload: { replay_epoch: epoch, skin: {}, change_events: true } });
  }

  live(event: WireEvent): void {
    this.events.push(event, { jsonrpc: '2.0', method: 'event', params: event });
  }

  async request<T = JsonValue>(method: string, params?: unknown): Promise<T> {
    this.calls.push({ method, params });
    return (await this.answer(params as { session_id: string; last_seen: number })) as T;
  }
}

const sinceResult = (events: WireEvent[], extra: Record<string, JsonValue> = {}) => ({ events, latest_seq: events[events.length - 1]?.seq ?? 0, truncated: false, count: events.length, epoch: 'e1', open_requests: [], ...extra });

test('live frames: watermark per session, a seq at or below it is dropped, session-less frames always pass', () => {
  const client = new ReplayingClient();
  for (const event of [ev('s', 1), ev('s', 2), ev('t', 1), ev('s', 2), ev('s', 1), ev('s', 3)]) client.receive(event);
  client.receive({ type: 'skin.changed', session_id: '' });
  expect(seqs(client)).toEqual([1, 2, 3]);
  expect(seqs(client, 't')).toEqual([1]);
  expect(client.watermark('s')).toBe(3);
  expect(client.delivered.at(-1)?.type).toBe('skin.changed');
});

test('after a reopen, live frames of watermarked sessions are parked until the replay settles; replayed and parked frames go out once each, in seq order', async () => {
  const client = new ReplayingClient();
  const first = FakeSource.withEpoch('e1');
  client.attach(first);
  first.live(ev('s', 1));
  first.live(ev('s', 2));
  const second = FakeSource.withEpoch('e1');
  let release: () => void = () => undefined;
  second.answer = (params) => {
    expect(params).toEqual({ session_id: 's', last_seen: 2 });
    return new Promise((resolve) => (release = () => resolve(sinceResult([ev('s', 3), ev('s', 4), ev('s', 5)]))));
  };
  expect(client.attach(second)).toEqual(['s']);
  const replay = client.replay(second, 's');
  second.live(ev('s', 5));
  second.live(ev('s', 6));
  first.live(ev('s', 99)); // the old socket is detached
  expect(client.isParked('s')).toBe(true);
  expect(seqs(client)).toEqual([1, 2]);
  release();
  const settlement = await replay;
  expect(settlement).toMatchObject({ status: 'replayed', delivered: 3, parked: 2, duplicatesDropped: 1, truncated: false });
  expect(seqs(client)).toEqual([1, 2, 3, 4, 5, 6]);
  second.live(ev('s', 6));
  second.live(ev('s', 7));
  expect(seqs(client)).toEqual([1, 2, 3, 4, 5, 6, 7]);
});

test('frames the new socket received before attach are fed through the same rules; gateway.ready is not an application event', () => {
  const client = new ReplayingClient();
  client.receive(ev('s', 4));
  const source = FakeSource.withEpoch('e1');
  source.events.push(source.ready as WireEvent, {});
  source.live(ev('s', 5));
  client.attach(source);
  expect(client.isParked('s')).toBe(true);
  expect(client.settle('s', sinceResult([ev('s', 5)]))).toMatchObject({ delivered: 1, parked: 1, duplicatesDropped: 1 });
  expect(client.delivered.map((e) => e.type)).not.toContain('gateway.ready');
});

test('a new replay_epoch in gateway.ready discards every watermark: nothing is replayed and old seqs flow again', () => {
  const client = new ReplayingClient();
  client.attach(FakeSource.withEpoch('e1'));
  client.receive(ev('s', 7));
  expect(client.attach(FakeSource.withEpoch('e1'))).toEqual(['s']);
  const restarted = FakeSource.withEpoch('e2');
  expect(client.attach(restarted)).toEqual([]);
  expect(client.watermark('s')).toBeUndefined();
  expect(client.epoch).toBe('e2');
  restarted.live(ev('s', 1));
  expect(seqs(client)).toEqual([7, 1]);
});

test('a replay result of another epoch is discarded and adopted; parked frames are then released', () => {
  const client = new ReplayingClient();
  client.attach(FakeSource.withEpoch('e1'));
  client.receive(ev('s', 3));
  const again = FakeSource.withEpoch('e1');
  client.attach(again);
  again.live(ev('s', 1));
  const settlement = client.settle('s', sinceResult([ev('s', 4)], { epoch: 'e2' }));
  expect(settlement.status).toBe('epoch-changed');
  expect(client.epoch).toBe('e2');
  expect(seqs(client)).toEqual([3, 1]);
});

test('truncated: a synthetic replay-gap event precedes the retained events; elements without a type or of another session are ignored', () => {
  const client = new ReplayingClient();
  client.receive(ev('s', 2));
  client.park('s');
  const settlement = client.settle('s', { ...sinceResult([ev('s', 9), ev('s', 10)]), truncated: true, events: [{ jsonrpc: '2.0', method: 'event' }, ev('x', 11), ev('s', 9), ev('s', 10)] });
  expect(settlement).toMatchObject({ status: 'replayed', truncated: true, delivered: 2 });
  expect(client.delivered.slice(1).map((e) => `${e.type}:${e.seq ?? ''}`)).toEqual([`${REPLAY_GAP_EVENT}:`, 'message.delta:9', 'message.delta:10']);
});

test('a failed replay is swallowed and the parked frames are released; a replay overtaken by a newer socket is abandoned', async () => {
  const client = new ReplayingClient();
  client.receive(ev('s', 1));
  const source = FakeSource.withEpoch('e1');
  source.answer = async () => {
    throw new Error('[REQUEST_TIMEOUT] session.events.since did not answer');
  };
  client.attach(source);
  source.live(ev('s', 2));
  expect(await client.replay(source, 's')).toMatchObject({ status: 'failed', parked: 1, error: expect.stringContaining('REQUEST_TIMEOUT') });
  expect(seqs(client)).toEqual([1, 2]);

  const slow = FakeSource.withEpoch('e1');
  let release: () => void = () => undefined;
  slow.answer = () => new Promise((resolve) => (release = () => resolve(sinceResult([ev('s', 3)]))));
  client.attach(slow);
  const replay = client.replay(slow, 's');
  client.attach(FakeSource.withEpoch('e1'));
  release();
  expect((await replay).status).toBe('abandoned');
  expect(seqs(client)).toEqual([1, 2]);
});

const stamped = [ev('s', 7, 'message.start', null), ev('s', 8), ev('s', 9), ev('s', 10, 'message.complete', { text: 'x' })];

test('judgeReplay: the exact replay passes; each falsification is named', () => {
  expect(judgeReplay({ sessionId: 's', lastSeen: 6, result: sinceResult(stamped), stamped, observedThroughAnswer: true })).toEqual([]);
  const dropped = [stamped[0], stamped[2], stamped[3]] as WireEvent[];
  expect(judgeReplay({ sessionId: 's', lastSeen: 6, result: sinceResult(dropped), stamped }).join('\n')).toMatch(/gap: seq 8 \(message.delta .*observed live\) is missing/);
  const duplicated = [stamped[0], stamped[0], ...stamped.slice(1)] as WireEvent[];
  expect(judgeReplay({ sessionId: 's', lastSeen: 6, result: sinceResult(duplicated), stamped })).toEqual(['duplicate: seq 7 (message.start null) is replayed twice']);
  const renumbered = [...stamped.slice(0, 3), { ...stamped[3], seq: 11 }] as WireEvent[];
  expect(judgeReplay({ sessionId: 's', lastSeen: 6, result: sinceResult(renumbered), stamped, observedThroughAnswer: true })).toEqual([
    'seq 11 was never stamped: the highest seq the gateway sent before answering is 10',
    'gap: seq 10 (message.complete {"text":"x"}, observed live) is missing from the replay',
  ]);
  const swapped = [stamped[0], { ...stamped[1], payload: { text: 'other' } }, stamped[2], stamped[3]] as WireEvent[];
  expect(judgeReplay({ sessionId: 's', lastSeen: 6, result: sinceResult(swapped), stamped })[0]).toMatch(/seq 8 is replayed as message.delta \{"text":"other"\} but was stamped as message.delta \{"text":"t8"\}/);
});

test('judgeReplay: an event stamped just after the answer (read with it) is not held against the replay; one received before the request is', () => {
  // Seq 11 arrived in the same read as the answer, after it: read once the answer is in, it is among the observed.
  const observed = [...stamped, ev('s', 11, 'message.complete', { text: 'later' })];
  const input = { sessionId: 's', lastSeen: 6, result: sinceResult(stamped), stamped: observed, observedThroughAnswer: true };
  expect(judgeReplay({ ...input, stampedBeforeRequest: stamped.slice(0, 3) })).toEqual([]);
  expect(judgeReplay(input), 'without telling them apart').toEqual([
    'latest_seq is 10, below seq 11 that the gateway had already stamped',
    'gap: seq 11 (message.complete {"text":"later"}, observed live) is missing from the replay',
  ]);
  // Seq 10 was received before the request was sent: a replay that stops at 9 lags.
  const lagging = { ...sinceResult(stamped.slice(0, 3)) };
  expect(judgeReplay({ ...input, result: lagging, stampedBeforeRequest: stamped })).toEqual([
    'latest_seq is 9, below seq 10 that the gateway had already stamped',
    'gap: seq 10 (message.complete {"text":"x"}, observed live) is missing from the replay',
  ]);
});

test('judgeReplay: count, latest_seq, truncated, order, watermark and shape rules', () => {
  const judge = (result: unknown, lastSeen = 6) => judgeReplay({ sessionId: 's', lastSeen, result, stamped });
  expect(judge({ ...sinceResult(stamped), count: 3 })).toEqual(['count is 3 but 4 events were replayed']);
  expect(judge({ ...sinceResult(stamped), latest_seq: 12 }).join('\n')).toMatch(/latest_seq is 12 but the last replayed event has seq 10[\s\S]*gap: seq 11 is missing/);
  expect(judge({ ...sinceResult(stamped), latest_seq: 9 }).join('\n')).toMatch(/latest_seq is 9, below seq 10 that the gateway had already stamped/);
  expect(judge({ ...sinceResult(stamped), truncated: true })[0]).toMatch(/truncated: true for watermark 6/);
  expect(judge(sinceResult([stamped[1], stamped[0], stamped[2], stamped[3]] as WireEvent[]))[0]).toMatch(/out of order: seq 7 is replayed after seq 8/);
  expect(judge(sinceResult(stamped), 7)[0]).toMatch(/seq 7 .* is at or below the watermark 7/);
  expect(judge({ ...sinceResult(stamped), events: [{ jsonrpc: '2.0', method: 'event', params: stamped[0] } as unknown as WireEvent, ...stamped.slice(1)] })[0]).toMatch(/events\[0\] is not an event params object with a type/);
  expect(judge({ events: 'none', latest_seq: '9' })).toEqual(['session.events.since result has no events array', 'latest_seq is "9", not an integer', 'truncated is undefined, not a boolean', 'count is undefined, not an integer']);
  expect(judge({ ...sinceResult([]), latest_seq: 10_000_000 }).length).toBeLessThan(10);
});

test('judgeDelivery: every seq once, in order, up to the last one stamped', () => {
  const delivered = (...list: number[]) => list.map((seq) => ev('s', seq));
  expect(judgeDelivery(delivered(1, 2, 3), 's', 3)).toEqual([]);
  expect(judgeDelivery(delivered(1, 2, 2, 3), 's', 3)).toEqual(['the client delivered seq 2 twice']);
  expect(judgeDelivery(delivered(1, 3), 's', 4)).toEqual(['the client never delivered seq 2', 'the client never delivered seq 4']);
  expect(judgeDelivery(delivered(1, 3, 2), 's', 3)).toEqual(['the client delivered seq 2 after seq 3']);
});
