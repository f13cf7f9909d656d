import { expect, test } from './helpers/test.js';
import * as fc from 'fast-check';
import { outcomeOf, rpcIdKey, rpcIdText, type RpcId } from '../../core/index.js';
import { type PendingRequest, PendingRequests } from '../../src/client/pendingRequests.js';
import { MAX_STRAY_FRAMES } from '../../src/client/rpcClientOptions.js';
import { protocolRig, settle } from './helpers/protocolFakes.js';

test('an answer with the same id is exact, one with the same id as text is loose', async () => {
  const { protocol, transport } = protocolRig({ idPrefix: '' });
  const first = protocol.call('a.b', { x: 1 });
  const second = protocol.call('a.b', {});
  expect(transport.frames).toEqual([
    { jsonrpc: '2.0', id: '1', method: 'a.b', params: { x: 1 } },
    { jsonrpc: '2.0', id: '2', method: 'a.b', params: {} },
  ]);
  transport.receive({ jsonrpc: '2.0', id: 2, result: 'two' });
  transport.receive({ jsonrpc: '2.0', id: '1', result: 'one' });
  expect((await first).correlation).toBe('exact');
  const loose = await second;
  expect(loose.correlation).toBe('loose');
  expect(outcomeOf(loose)).toEqual({ kind: 'result', result: 'two' });
});

test('params are omitted when undefined, ids may be given, and an id as text never matches a null id', async () => {
  const { protocol, transport } = protocolRig();
  const call = protocol.call('x.y', undefined, { id: 'null' });
  const other = protocol.call('x.z', undefined, { id: 5 });
  expect(transport.frames[0]).toEqual({ jsonrpc: '2.0', id: 'null', method: 'x.y' });
  transport.receive({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
  expect(protocol.strayFrames).toHaveLength(1);
  transport.receive({ jsonrpc: '2.0', id: 5, result: 1 });
  transport.receive({ jsonrpc: '2.0', id: 'null', result: 2 });
  expect((await call).correlation).toBe('exact');
  expect((await other).correlation).toBe('exact');
});

test('an answer that matches nothing goes to the only open request (sole-pending), else it is kept aside', async () => {
  const { protocol, transport } = protocolRig();
  const only = protocol.call('m', {});
  transport.receive({ jsonrpc: '2.0', id: 'nobody', result: 1 });
  const exchange = await only;
  expect(exchange.correlation).toBe('sole-pending');
  expect(exchange.response?.['id']).toBe('nobody');

  const a = protocol.call('m', {});
  const b = protocol.call('m', {});
  transport.receive({ jsonrpc: '2.0', id: 'nobody', result: 2 });
  expect(protocol.strayFrames).toEqual(['{"jsonrpc":"2.0","id":"nobody","result":2}']);
  transport.receive({ jsonrpc: '2.0', id: 'r2', result: 1 });
  transport.receive({ jsonrpc: '2.0', id: 'r3', result: 1 });
  expect((await a).correlation).toBe('exact');
  expect((await b).correlation).toBe('exact');
});

test('text that is not JSON fails the only open request as UNPARSEABLE_FRAME; a non-object frame is only kept', async () => {
  const { protocol, transport } = protocolRig({ secrets: ['s3cret'] });
  const call = protocol.call('m', {});
  transport.receive('[1, 2]');
  expect(protocol.strayFrames).toEqual(['[1, 2]']);
  transport.receive('<html>s3cret</html>');
  const exchange = await call;
  expect(exchange.failure).toEqual({ code: 'UNPARSEABLE_FRAME', message: '[UNPARSEABLE_FRAME] the target answered with text that is not JSON: "<html>***</html>"' });
  expect(exchange.responseText).toBe('<html>s3cret</html>');
});

test('a second answer is noted on its exchange and never taken for the request open at that moment', async () => {
  const { protocol, transport } = protocolRig();
  const first = protocol.call('m', {});
  transport.receive({ jsonrpc: '2.0', id: 'r1', result: 1 });
  const answered = await first;
  const next = protocol.call('m', {});
  transport.receive({ jsonrpc: '2.0', id: 'r1', result: 'again' });
  transport.receive({ jsonrpc: '2.0', id: 'r2', result: 2 });
  expect(answered.duplicateAnswers).toEqual(['{"jsonrpc":"2.0","id":"r1","result":"again"}']);
  expect(protocol.strayFrames).toEqual(['{"jsonrpc":"2.0","id":"r1","result":"again"}']);
  expect(outcomeOf(await next)).toEqual({ kind: 'result', result: 2 });
});

test('a request times out on the clock, without real waiting; its late answer is recognised as late', async () => {
  const { protocol, transport, clock } = protocolRig({ requestTimeoutMs: 300 });
  const slow = protocol.call('slow.one', {});
  clock.advance(299);
  const other = protocol.call('m', {}, { timeoutMs: 10_000 });
  clock.advance(1);
  const timedOut = await slow;
  expect(timedOut.failure).toEqual({ code: 'REQUEST_TIMEOUT', message: '[REQUEST_TIMEOUT] slow.one did not answer within 300 ms' });
  expect(timedOut.elapsedMs).toBe(300);
  // The late answer would be "sole-pending" for the other request if it were not recognised.
  transport.receive({ jsonrpc: '2.0', id: 'r1', result: 'late' });
  expect(protocol.strayFrames).toHaveLength(1);
  // Noted on the exchange that timed out (the first late answer only), which stays a timeout.
  transport.receive({ jsonrpc: '2.0', id: 'r1', result: 'later still' });
  expect(timedOut.lateAnswer).toBe('{"jsonrpc":"2.0","id":"r1","result":"late"}');
  expect(timedOut.response).toBeUndefined();
  expect(timedOut.duplicateAnswers).toBeUndefined();
  transport.receive({ jsonrpc: '2.0', id: 'r2', result: 'mine' });
  expect(outcomeOf(await other)).toEqual({ kind: 'result', result: 'mine' });
  expect(clock.pendingTimers).toBe(0);
});

test('a reused id belongs to the new request: its answer is not taken for a late one', async () => {
  const { protocol, transport, clock } = protocolRig();
  const first = protocol.call('m', {}, { id: 7, timeoutMs: 50 });
  clock.advance(50);
  expect((await first).failure?.code).toBe('REQUEST_TIMEOUT');
  const again = protocol.call('m', {}, { id: 7 });
  transport.receive({ jsonrpc: '2.0', id: 7, result: 'fresh' });
  expect((await again).correlation).toBe('exact');
});

test('a close fails every open request with the code and reason; later calls fail without being sent', async () => {
  const { protocol, transport, transcript } = protocolRig();
  const a = protocol.call('m', {});
  const b = protocol.call('n', {});
  const stray = protocol.nextStrayFrame(5_000);
  transport.drop({ code: 1011, reason: 'internal error' });
  for (const exchange of [await a, await b]) {
    expect(exchange.failure).toEqual({ code: 'CONNECTION_CLOSED', message: 'the target closed the connection (code 1011, "internal error") before answering', closeCode: 1011, closeReason: 'internal error' });
  }
  expect(await stray).toBeUndefined();
  expect(await protocol.closed).toEqual({ code: 1011, reason: 'internal error' });
  const after = await protocol.call('late', {});
  expect(after.failure?.message).toBe('[CONNECTION_CLOSED] cannot send late: the connection is closed (code 1011)');
  expect(transport.sent).toHaveLength(2);
  expect(transcript.render()).toContain('-- [c1 +0ms] closed 1011 internal error');
});

test('a close this side caused names the fault; a described close (a child process) uses its description', async () => {
  const dropped = protocolRig();
  const call = dropped.protocol.call('m', {});
  dropped.transport.drop({ code: 1009, reason: '', localFault: 'the target sent a frame larger than the limit' });
  expect((await call).failure?.message).toBe('the client dropped the connection before an answer: the target sent a frame larger than the limit');

  const child = protocolRig({ kind: 'stdio' });
  const pending = child.protocol.call('m', {});
  child.transport.drop({ code: 3, reason: 'exit code 3', description: 'the process exited with code 3' });
  expect((await pending).failure?.message).toBe('the target closed the connection (the process exited with code 3) before answering');
  expect(child.transcript.render()).toContain('closed (the process exited with code 3)');
});

test('stray frames feed nextStrayFrame first, are bounded, and a waiter times out on the clock', async () => {
  const { protocol, transport, clock } = protocolRig();
  const next = protocol.nextStrayFrame(100);
  transport.receive('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}');
  expect(await next).toContain('-32700');
  const nothing = protocol.nextStrayFrame(100);
  clock.advance(100);
  expect(await nothing).toBeUndefined();
  for (let i = 0; i < MAX_STRAY_FRAMES + 5; i++) transport.receive({ jsonrpc: '2.0', id: `x${i}`, result: i });
  expect(protocol.strayFrames).toHaveLength(MAX_STRAY_FRAMES);
  expect(protocol.strayDropped).toBe(5);
});

test('events and other notifications are logged, never taken for answers; event waiters use the clock', async () => {
  const { protocol, transport, clock } = protocolRig();
  const call = protocol.call('m', {});
  transport.receive({ jsonrpc: '2.0', method: 'event', params: { type: 'x.tick', session_id: 's1', seq: 1 } });
  transport.receive({ jsonrpc: '2.0', method: 'progress', params: { n: 1 } });
  expect(protocol.events.all().map((e) => e.type)).toEqual(['x.tick']);
  expect(protocol.events.recorded[0]?.receivedAt).toBe(clock.now());
  expect(protocol.events.notifications).toEqual([{ jsonrpc: '2.0', method: 'progress', params: { n: 1 } }]);
  const waiting = protocol.events.waitFor({ type: 'never' }, 250);
  clock.advance(250);
  await expect(waiting).rejects.toThrow('[EVENT_TIMEOUT] no never arrived within 250 ms');
  transport.receive({ jsonrpc: '2.0', id: 'r1', result: true });
  expect((await call).correlation).toBe('exact');
});

test('a reply the transport attributes itself (HTTP) settles that request, whatever its id says', async () => {
  const { protocol, transport } = protocolRig({ kind: 'http' });
  const a = protocol.call('m', {});
  const b = protocol.call('n', {});
  const [sentA, sentB] = transport.sent;
  transport.receive({ jsonrpc: '2.0', id: 'other', result: 'b' }, sentB?.replyTo);
  transport.receive('<html>', sentA?.replyTo);
  const answerB = await b;
  expect(answerB.correlation).toBe('sole-pending');
  expect(outcomeOf(answerB)).toEqual({ kind: 'result', result: 'b' });
  expect((await a).failure).toEqual({ code: 'UNPARSEABLE_FRAME', message: '[UNPARSEABLE_FRAME] m answered with a body that is not a JSON-RPC object' });
  const c = protocol.call('o', {});
  transport.undeliverable(transport.sent[2]?.replyTo as number, 'POST to fake://target failed: fetch failed');
  expect((await c).failure).toEqual({ code: 'CONNECTION_CLOSED', message: '[CONNECTION_CLOSED] POST to fake://target failed: fetch failed' });
});

test('a timed-out request is cancelled at the transport (an HTTP POST is aborted)', async () => {
  const { protocol, transport, clock } = protocolRig({ kind: 'http' });
  const call = protocol.call('m', {}, { timeoutMs: 20 });
  clock.advance(20);
  await call;
  expect(transport.cancelled).toEqual([transport.sent[0]?.replyTo]);
});

test('the transcript shows every frame both ways, notes redacted, and counts an event flood beyond its bound', async () => {
  const { protocol, transport, transcript } = protocolRig({ secrets: ['tok'] });
  const call = protocol.call('m', { a: 1 });
  transport.note('socket error: tok refused');
  transport.receive({ jsonrpc: '2.0', id: 'r1', result: 1 });
  await call;
  await settle();
  expect(transcript.render()).toBe(
    [
      '>> [c1 +0ms] {"jsonrpc":"2.0","id":"r1","method":"m","params":{"a":1}}',
      '-- [c1 +0ms] socket error: *** refused',
      '<< [c1 +0ms] {"jsonrpc":"2.0","id":"r1","result":1}',
      '',
    ].join('\n'),
  );
});

test('open requests sharing an id are found oldest first, whatever order they are added and settled in', () => {
  const ids: RpcId[] = ['a', 'b', 1, '1', null];
  const step = fc.oneof(fc.record({ add: fc.constantFrom(...ids) }), fc.record({ remove: fc.nat(40) }));
  fc.assert(
    fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
      const pending = new PendingRequests();
      const open: PendingRequest[] = [];
      // Every step is compared with the model; the mismatches are asserted once per case (an expect per
      // comparison was most of this test's time).
      const wrong: string[] = [];
      let serial = 0;
      steps.forEach((s, at) => {
        if ('add' in s) {
          const request = { serial: ++serial, id: s.add, key: rpcIdKey(s.add), method: 'm', params: undefined, requestText: '', started: 0, timer: undefined, slot: undefined, resolve: () => undefined };
          pending.add(request);
          open.push(request);
        } else if (open.length > 0) {
          const [gone] = open.splice(s.remove % open.length, 1);
          if (pending.delete(gone as PendingRequest) !== true) wrong.push(`step ${at}: the first delete of request ${gone?.serial} failed`);
          if (pending.delete(gone as PendingRequest) !== false) wrong.push(`step ${at}: the second delete of request ${gone?.serial} succeeded`);
        }
        if (pending.size !== open.length) wrong.push(`step ${at}: size ${pending.size}, ${open.length} open`);
        for (const id of ids) {
          const exact = open.find((r) => rpcIdKey(r.id) === rpcIdKey(id));
          const loose = id === null ? undefined : open.find((r) => rpcIdText(r.id) === String(id));
          if (pending.exact(id) !== exact) wrong.push(`step ${at}: exact(${JSON.stringify(id)}) is request ${pending.exact(id)?.serial}, not ${exact?.serial}`);
          if (pending.loose(id) !== loose) wrong.push(`step ${at}: loose(${JSON.stringify(id)}) is request ${pending.loose(id)?.serial}, not ${loose?.serial}`);
        }
      });
      expect(wrong).toEqual([]);
    }),
    { numRuns: 40 },
  );
});

test('exchanges keep their fields in one order, however they were settled (reports serialise them as they are)', async () => {
  const { protocol, transport, clock } = protocolRig({ idPrefix: '' });
  const exact = protocol.call('m', { a: 1 });
  const loose = protocol.call('m', {});
  transport.receive({ jsonrpc: '2.0', id: '1', result: 1 });
  transport.receive({ jsonrpc: '2.0', id: 2, result: 2 });
  const sole = protocol.call('m', {});
  transport.receive({ jsonrpc: '2.0', id: 'other', result: 3 });
  const late = protocol.call('m', {}, { timeoutMs: 5 });
  clock.advance(5);
  const answered = ['conn', 'method', 'id', 'params', 'requestText', 'elapsedMs', 'correlation', 'response', 'responseText'];
  expect(Object.keys(await exact)).toEqual(answered);
  expect(Object.keys(await loose)).toEqual(answered);
  expect(Object.keys(await sole)).toEqual(['conn', 'method', 'id', 'params', 'requestText', 'elapsedMs', 'correlation', 'responseText', 'response']);
  expect(Object.keys(await late)).toEqual(['conn', 'method', 'id', 'params', 'requestText', 'elapsedMs', 'correlation', 'failure']);
});

test('a request sent with its params text is the very text the protocol would have made', async () => {
  const { protocol, transport } = protocolRig();
  const params = { b: 'x'.repeat(70_000), a: [1, { c: null }], __proto__: 'kept' } as unknown as Record<string, unknown>;
  void protocol.call('m.one', params, { paramsText: JSON.stringify(params) });
  void protocol.call('m.one', params);
  void protocol.call('m.two', undefined, { paramsText: 'ignored: there are no params' });
  const [withText, without, none] = transport.sent.map((s) => s.text);
  expect(withText?.replace('"id":"r1"', '"id":"r2"')).toBe(without);
  expect(none).toBe('{"jsonrpc":"2.0","id":"r3","method":"m.two"}');
});
