import { expect, test } from './helpers/test.js';
import { FlowControl } from '../../src/client/flowControl.js';
import { RpcProtocol } from '../../src/client/rpcProtocol.js';
import { Redactor } from '../../src/client/redact.js';
import { Transcript } from '../../src/client/transcript.js';
import { FakeClock, FakeTransport, settle } from './helpers/protocolFakes.js';

function connections(count: number, flow: FlowControl, clock: FakeClock): Array<{ protocol: RpcProtocol; transport: FakeTransport }> {
  return Array.from({ length: count }, (_, i) => {
    const transport = new FakeTransport();
    const protocol = new RpcProtocol(transport, new Transcript(new Redactor([])), new Redactor([]), { name: `c${i + 1}`, clock, flowControl: flow });
    return { protocol, transport };
  });
}

test('at most N requests are outstanding over every connection sharing the flow control, first come first served', async () => {
  const clock = new FakeClock();
  const flow = new FlowControl({ maxInFlight: 2, clock });
  const [a, b] = connections(2, flow, clock);
  if (!a || !b) throw new Error('two connections');
  const a1 = a.protocol.call('m', {});
  const b1 = b.protocol.call('m', {});
  const a2 = a.protocol.call('m', {});
  const b2 = b.protocol.call('m', {});
  expect([a.transport.sent.length, b.transport.sent.length]).toEqual([1, 1]);
  expect(flow.waiting).toBe(2);
  clock.advance(40);
  b.transport.receive({ jsonrpc: '2.0', id: 'r1', result: 1 });
  await b1;
  await settle();
  // The slot b1 freed goes to the oldest waiter, a2, not to b's own next request.
  expect([a.transport.sent.length, b.transport.sent.length]).toEqual([2, 1]);
  a.transport.receive({ jsonrpc: '2.0', id: 'r1', result: 1 });
  await a1;
  await settle();
  expect(b.transport.sent.length).toBe(2);
  a.transport.receive({ jsonrpc: '2.0', id: 'r2', result: 2 });
  b.transport.receive({ jsonrpc: '2.0', id: 'r2', result: 2 });
  await Promise.all([a2, b2]);
  expect({ sent: flow.sent, peakInFlight: flow.peakInFlight, inFlight: flow.inFlight, timeouts: flow.timeouts, queuedMs: flow.queuedMs }).toEqual({ sent: 4, peakInFlight: 2, inFlight: 0, timeouts: 0, queuedMs: 80 });
});

test('time spent waiting for a slot does not count against the request timeout; a timeout releases the slot', async () => {
  const clock = new FakeClock();
  const flow = new FlowControl({ maxInFlight: 1, clock });
  const [c] = connections(1, flow, clock);
  if (!c) throw new Error('one connection');
  const first = c.protocol.call('slow', {}, { timeoutMs: 500 });
  const second = c.protocol.call('next', {}, { timeoutMs: 300 });
  clock.advance(499);
  expect(c.transport.sent).toHaveLength(1);
  clock.advance(1);
  expect((await first).failure?.code).toBe('REQUEST_TIMEOUT');
  await settle();
  expect(c.transport.sent).toHaveLength(2);
  // Queued for 500 ms, yet it has its whole 300 ms from the moment it was sent.
  clock.advance(299);
  c.transport.receive({ jsonrpc: '2.0', id: 'r2', result: 'ok' });
  const answered = await second;
  expect(answered.failure).toBeUndefined();
  expect(answered.elapsedMs).toBe(299);
  expect(flow.timeouts).toBe(1);
  expect(flow.queuedMs).toBe(500);
});

test('a close releases the slots of its open requests and fails its queued ones without sending them', async () => {
  const clock = new FakeClock();
  const flow = new FlowControl({ maxInFlight: 1, clock });
  const [a, b] = connections(2, flow, clock);
  if (!a || !b) throw new Error('two connections');
  const open = a.protocol.call('m', {});
  const queued = a.protocol.call('n', {});
  const other = b.protocol.call('o', {});
  a.transport.drop({ code: 1006, reason: '' });
  expect((await open).failure?.code).toBe('CONNECTION_CLOSED');
  expect((await queued).failure?.message).toBe('[CONNECTION_CLOSED] cannot send n: the connection is closed (code 1006)');
  await settle();
  expect(a.transport.sent).toHaveLength(1);
  expect(b.transport.sent).toHaveLength(1);
  b.transport.receive({ jsonrpc: '2.0', id: 'r1', result: 1 });
  await other;
  expect(flow.inFlight).toBe(0);
  expect(flow.waiting).toBe(0);
});

test('a rate spaces the sends evenly, on the clock', async () => {
  const clock = new FakeClock();
  const flow = new FlowControl({ ratePerSecond: 4, clock });
  const [c] = connections(1, flow, clock);
  if (!c) throw new Error('one connection');
  for (let i = 0; i < 3; i++) void c.protocol.call('m', {});
  expect(c.transport.sent).toHaveLength(1);
  clock.advance(249);
  await settle();
  expect(c.transport.sent).toHaveLength(1);
  clock.advance(1);
  await settle();
  expect(c.transport.sent).toHaveLength(2);
  clock.advance(250);
  await settle();
  expect(c.transport.sent).toHaveLength(3);
  expect(flow.queuedMs).toBe(250 + 500);
  expect(flow.peakInFlight).toBe(3);
});

test('without a limit every request is sent at once, in call order', () => {
  const clock = new FakeClock();
  const flow = new FlowControl({ clock });
  const [c] = connections(1, flow, clock);
  if (!c) throw new Error('one connection');
  for (let i = 0; i < 5; i++) void c.protocol.call('m', { i });
  expect(c.transport.frames.map((f) => (f['params'] as { i: number }).i)).toEqual([0, 1, 2, 3, 4]);
  expect(flow.peakInFlight).toBe(5);
});

test('a slot is released once, however often release is called; bad limits are refused', () => {
  const flow = new FlowControl({ maxInFlight: 1, clock: new FakeClock() });
  const slot = flow.tryAcquire();
  expect(flow.tryAcquire()).toBeUndefined();
  slot?.release('timeout');
  slot?.release('timeout');
  expect(flow.inFlight).toBe(0);
  expect(flow.timeouts).toBe(1);
  expect(() => new FlowControl({ maxInFlight: 0 })).toThrow(RangeError);
  expect(() => new FlowControl({ ratePerSecond: -1 })).toThrow(RangeError);
});
