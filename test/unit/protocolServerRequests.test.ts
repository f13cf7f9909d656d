import { expect, test } from './helpers/test.js';
import type { ServerRequest } from '../../src/client/serverRequests.js';
import { protocolRig, settle } from './helpers/protocolFakes.js';

const REQUEST = { jsonrpc: '2.0', id: 's1', method: 'approval.request', params: { tool: 'shell' } };

test('without a handler a server request is answered -32601 at once and recorded', async () => {
  const { protocol, transport, clock, transcript } = protocolRig();
  transport.receive(REQUEST);
  expect(transport.frames).toEqual([{ jsonrpc: '2.0', id: 's1', error: { code: -32601, message: 'the client does not handle server requests' } }]);
  expect(protocol.serverRequests).toEqual([
    {
      frame: REQUEST,
      id: 's1',
      method: 'approval.request',
      receivedAt: clock.now(),
      status: 'rejected',
      answer: { error: { code: -32601, message: 'the client does not handle server requests' } },
      answeredAt: clock.now(),
      sent: true,
    },
  ]);
  // It is not a stray frame: it was answered.
  expect(protocol.strayFrames).toEqual([]);
  const text = transcript.render();
  expect(text).toContain('<< [c1 +0ms] {"jsonrpc":"2.0","id":"s1","method":"approval.request"');
  expect(text).toContain('>> [c1 +0ms] {"jsonrpc":"2.0","id":"s1","error":{"code":-32601');
});

test("with unhandledServerRequests: 'ignore' nothing is sent and the request is recorded as ignored", () => {
  const { protocol, transport } = protocolRig({ unhandledServerRequests: 'ignore' });
  transport.receive(REQUEST);
  expect(transport.sent).toEqual([]);
  expect(protocol.serverRequests[0]?.status).toBe('ignored');
});

test('a handler answer is sent with the same id (of any JSON type) and recorded', async () => {
  const seen: ServerRequest[] = [];
  const { protocol, transport, clock } = protocolRig({
    answerServerRequest: (request) => {
      seen.push(request);
      return Promise.resolve(request.method === 'deny' ? { error: { code: 4001, message: 'no', data: { why: 'policy' } } } : { result: { approved: true } });
    },
  });
  transport.receive({ ...REQUEST, id: 42 });
  transport.receive({ jsonrpc: '2.0', id: 'd', method: 'deny' });
  clock.advance(5);
  await settle();
  expect(seen).toEqual([
    { id: 42, method: 'approval.request', params: { tool: 'shell' } },
    { id: 'd', method: 'deny', params: undefined },
  ]);
  expect(transport.frames).toEqual([
    { jsonrpc: '2.0', id: 42, result: { approved: true } },
    { jsonrpc: '2.0', id: 'd', error: { code: 4001, message: 'no', data: { why: 'policy' } } },
  ]);
  expect(protocol.serverRequests.map((r) => r.status)).toEqual(['answered', 'answered']);
  expect(clock.pendingTimers).toBe(0);
});

test('a handler that throws answers -32603 naming the failure, redacted, and the transcript says so', async () => {
  const { protocol, transport, transcript } = protocolRig({
    secrets: ['hunter2'],
    answerServerRequest: () => Promise.reject(new Error('cannot read hunter2')),
  });
  transport.receive(REQUEST);
  await settle();
  const message = "the client's handler for approval.request failed: cannot read ***";
  expect(transport.frames).toEqual([{ jsonrpc: '2.0', id: 's1', error: { code: -32603, message } }]);
  expect(protocol.serverRequests[0]).toMatchObject({ status: 'handler-failed', note: message });
  expect(transcript.render()).toContain(`-- [c1 +0ms] server request "s1" approval.request: ${message}`);
});

test('a handler that throws synchronously, or answers nonsense, answers -32603 too', async () => {
  const { protocol, transport } = protocolRig({
    answerServerRequest: (request) => {
      if (request.method === 'sync') throw new Error('boom');
      return Promise.resolve({ neither: true } as never);
    },
  });
  transport.receive({ jsonrpc: '2.0', id: 1, method: 'sync' });
  transport.receive({ jsonrpc: '2.0', id: 2, method: 'odd' });
  await settle();
  expect(transport.frames.map((f) => (f['error'] as { message: string }).message)).toEqual([
    "the client's handler for sync failed: boom",
    "the client's handler for odd returned neither a result nor a JSON-RPC error",
  ]);
  expect(protocol.serverRequests.map((r) => r.status)).toEqual(['handler-failed', 'handler-failed']);
});

test('a handler slower than the bound is answered -32603 on the clock; its late answer is dropped', async () => {
  let answer: (value: { result: string }) => void = () => undefined;
  const { protocol, transport, clock } = protocolRig({
    serverRequestTimeoutMs: 1_000,
    answerServerRequest: () => new Promise((resolve) => (answer = resolve)),
  });
  transport.receive(REQUEST);
  clock.advance(999);
  expect(transport.sent).toEqual([]);
  clock.advance(1);
  expect(transport.frames).toEqual([{ jsonrpc: '2.0', id: 's1', error: { code: -32603, message: "the client's handler for approval.request did not answer within 1000 ms" } }]);
  expect(protocol.serverRequests[0]).toMatchObject({ status: 'handler-timeout', answeredAt: clock.now() });
  answer({ result: 'too late' });
  await settle();
  expect(transport.sent).toHaveLength(1);
});

test('an answer due after the connection closed is recorded as not sent', async () => {
  let answer: (value: { result: string }) => void = () => undefined;
  const { protocol, transport } = protocolRig({ answerServerRequest: () => new Promise((resolve) => (answer = resolve)) });
  transport.receive(REQUEST);
  transport.drop({ code: 1006, reason: '' });
  answer({ result: 'ok' });
  await settle();
  expect(transport.sent).toEqual([]);
  expect(protocol.serverRequests[0]).toMatchObject({ status: 'answered', sent: false, answer: { result: 'ok' } });
});

test('an `event` frame with an id is a server request, not an event', () => {
  const { protocol, transport } = protocolRig();
  transport.receive({ jsonrpc: '2.0', id: 9, method: 'event', params: { type: 'x' } });
  expect(protocol.events.length).toBe(0);
  expect(protocol.serverRequests.map((r) => r.method)).toEqual(['event']);
});
