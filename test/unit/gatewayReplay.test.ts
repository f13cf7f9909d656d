import { expect, test } from './helpers/test.js';
import { DEFAULT_REPLAY_LIMITS, ReplayRings } from '../../gateway/core/replayRings.js';
import { coreHarness, createReady, turn } from './helpers/gatewayHarness.js';

const rings = (limits: Partial<typeof DEFAULT_REPLAY_LIMITS> = {}) => new ReplayRings({ ...DEFAULT_REPLAY_LIMITS, ...limits });
const record = (replay: ReplayRings, session: string, payload: unknown = { text: 'x' }) => replay.record(session, { type: 'message.delta', session_id: session, payload }).seq;

test('seq starts at 1 per session and increases by one; since() returns params objects after the watermark', () => {
  const replay = rings();
  expect([record(replay, 'a'), record(replay, 'a'), record(replay, 'b'), record(replay, 'a')]).toEqual([1, 2, 1, 3]);
  const slice = replay.since('a', 1);
  expect(slice).toEqual({
    events: [
      { type: 'message.delta', session_id: 'a', payload: { text: 'x' }, seq: 2 },
      { type: 'message.delta', session_id: 'a', payload: { text: 'x' }, seq: 3 },
    ],
    latest_seq: 3,
    truncated: false,
    count: 2,
  });
  expect(replay.since('unknown', 0)).toEqual({ events: [], latest_seq: 0, truncated: false, count: 0 });
});

test('a ring keeps at most maxEventsPerSession events; an older watermark is truncated', () => {
  const replay = rings({ maxEventsPerSession: 512 });
  for (let i = 0; i < 600; i++) record(replay, 's');
  expect(replay.since('s', 0)).toMatchObject({ latest_seq: 600, truncated: true, count: 512 });
  expect(replay.since('s', 0).events[0]?.['seq']).toBe(89);
  expect(replay.since('s', 88)).toMatchObject({ truncated: false, count: 512 });
  expect(replay.since('s', 87)).toMatchObject({ truncated: true });
  expect(replay.stats()).toEqual({ sessions: 1, events: 512, bytes: expect.any(Number), max_per_session: 512, max_bytes_per_session: 4 * 1024 * 1024, max_bytes_process: 64 * 1024 * 1024 });
});

test('a watermark ahead of latest_seq is truncated (a stale ring from another runtime id or epoch)', () => {
  const replay = rings();
  record(replay, 's');
  expect(replay.since('s', 1)).toMatchObject({ truncated: false, count: 0 });
  expect(replay.since('s', 2)).toMatchObject({ truncated: true, latest_seq: 1 });
  expect(replay.since('never', 5)).toMatchObject({ truncated: true, latest_seq: 0 });
});

test('byte limits: per session, and a frame larger than a limit is never retained but leaves a gap', () => {
  const one = JSON.stringify({ type: 'message.delta', session_id: 's', payload: { text: 'x'.repeat(100) }, seq: 1 }).length;
  const replay = rings({ maxBytesPerSession: one * 3 });
  for (let i = 0; i < 5; i++) record(replay, 's', { text: 'x'.repeat(100) });
  expect(replay.since('s', 0)).toMatchObject({ count: 3, truncated: true });
  expect(replay.since('s', 2)).toMatchObject({ count: 3, truncated: false });
  record(replay, 's', { text: 'y'.repeat(one * 4) });
  expect(replay.since('s', 5)).toMatchObject({ count: 0, latest_seq: 6, truncated: true });
  record(replay, 's', { text: 'z' });
  expect(replay.since('s', 6)).toMatchObject({ count: 1, truncated: false });
});

test('process limits: total bytes evict the oldest events first; past maxSessions the oldest ring goes, its seqs stay monotonic', () => {
  const one = JSON.stringify({ type: 'message.delta', session_id: 'a', payload: { text: 'x' }, seq: 1 }).length;
  const replay = rings({ maxBytesProcess: one * 4 });
  for (let i = 0; i < 3; i++) record(replay, 'a');
  for (let i = 0; i < 3; i++) record(replay, 'b');
  expect(replay.stats().events).toBe(4);
  expect(replay.since('a', 0)).toMatchObject({ count: 1, truncated: true });
  expect(replay.since('b', 0)).toMatchObject({ count: 3, truncated: false });
  const capped = rings({ maxSessions: 2 });
  record(capped, 'a');
  record(capped, 'b');
  record(capped, 'c');
  expect(capped.stats().sessions).toBe(2);
  expect(capped.since('a', 0)).toMatchObject({ count: 0, latest_seq: 1, truncated: true });
  expect(record(capped, 'a')).toBe(2);
});

test('session.events.since over the wire: the missed events, epoch = replay_epoch, open_requests present', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const created = await createReady(client);
  await turn(client, created.session_id, 'replay me');
  const result = await client.call<Record<string, unknown>>('session.events.since', { session_id: created.session_id, last_seen: 2 });
  expect(result).toMatchObject({ latest_seq: 6, truncated: false, count: 4, epoch: harness.core.replayEpoch, open_requests: [] });
  expect((result['events'] as Array<Record<string, unknown>>).map((event) => event['seq'])).toEqual([3, 4, 5, 6]);
  expect(client.events(created.session_id).slice(2)).toEqual(result['events']);
  expect((await client.call<{ count: number }>('session.events.since', { session_id: created.session_id })).count).toBe(6);
  expect((await client.call<{ count: number }>('session.events.since', { session_id: created.session_id, last_seen: null })).count).toBe(6);
  harness.close();
});

test('a replay ring outlives its session: events stay readable after close, and a resume starts a new ring', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const created = await createReady(client);
  await turn(client, created.session_id, 'x');
  await client.call('session.close', { session_id: created.session_id });
  expect(await client.call('session.events.since', { session_id: created.session_id, last_seen: 0 })).toMatchObject({ count: 6, latest_seq: 6 });
  const resumed = await client.call<{ session_id: string }>('session.resume', { session_id: created.stored_session_id });
  await client.waitForEvent('session.info', resumed.session_id);
  expect(await client.call('session.events.since', { session_id: resumed.session_id, last_seen: 6 })).toMatchObject({ latest_seq: 1, truncated: true });
  harness.close();
});

test('session.events.stats reports occupancy and the configured limits', async () => {
  const harness = coreHarness({ replay: { maxEventsPerSession: 4, maxSessions: 8 } });
  const client = harness.client();
  const created = await createReady(client);
  await turn(client, created.session_id, 'x');
  expect(await client.call('session.events.stats', {})).toEqual({
    sessions: 1,
    events: 4,
    bytes: expect.any(Number),
    max_per_session: 4,
    max_bytes_per_session: 4 * 1024 * 1024,
    max_bytes_process: 64 * 1024 * 1024,
  });
  expect(await client.call('session.events.since', { session_id: created.session_id, last_seen: 1 })).toMatchObject({ count: 4, truncated: true });
  harness.close();
});

test('record returns the stamped params as JSON text, the very text an event frame is built around', () => {
  const replay = rings();
  const params = { type: 'message.delta', session_id: 'a', payload: { text: 'x' } };
  const { seq, json } = replay.record('a', params);
  expect(JSON.parse(json)).toEqual({ ...params, seq });
  expect(json).toBe(JSON.stringify(params));
});
