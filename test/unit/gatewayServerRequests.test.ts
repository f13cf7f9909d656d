import { expect, test } from './helpers/test.js';
import type { MemoryClient } from '../../gateway/index.js';
import { type CoreHarness, coreHarness, createReady, FULL_CONTRACT, sleep } from './helpers/gatewayHarness.js';

type Frame = Record<string, unknown>;

test.describe.configure({ mode: 'parallel' });

const full = (options: { serverRequestTimeoutMs?: number } = {}): CoreHarness => coreHarness({ contractPaths: [FULL_CONTRACT], ...options });

/** The next server→client request frame the client receives (a frame with an id and a method). */
const nextRequest = (client: MemoryClient, seen = 0): Promise<Frame> => {
  let count = 0;
  return client.waitFor((frame) => typeof frame['method'] === 'string' && frame['method'] !== 'event' && 'id' in frame && count++ >= seen);
};

const completes = (client: MemoryClient, sessionId: string): Frame[] => client.events(sessionId).filter((event) => event['type'] === 'message.complete');
const cancels = (client: MemoryClient, sessionId: string): Frame[] => client.events(sessionId).filter((event) => event['type'] === 'request.cancel');

async function asked(harness: CoreHarness, method = 'approval'): Promise<{ client: MemoryClient; sessionId: string; request: Frame }> {
  const client = harness.client();
  const { session_id: sessionId } = await createReady(client);
  const reply = await client.call('prompt.submit', { session_id: sessionId, text: `/request ${method}` });
  expect(reply).toMatchObject({ status: 'streaming' });
  return { client, sessionId, request: await nextRequest(client) };
}

test('/request approval sends the server request to the owner; the answer finishes the turn, echoed in message.complete', async () => {
  const harness = full();
  try {
    const { client, sessionId, request } = await asked(harness);
    expect(request).toMatchObject({ jsonrpc: '2.0', method: 'approval', params: { session_id: sessionId } });
    expect(request['id']).toMatch(/^srq-[0-9a-f]{12}$/);
    expect(Object.keys(request).sort()).toEqual(['id', 'jsonrpc', 'method', 'params']);
    const framesBefore = client.frames.length;
    await client.send({ jsonrpc: '2.0', id: request['id'], result: { choice: 'once' } });
    const complete = await client.waitForEvent('message.complete', sessionId);
    expect(complete['payload']).toMatchObject({ text: 'approval answered: {"choice":"once"}', status: 'complete' });
    // No frame answers the response itself; the turn's deltas and completion are events.
    expect(client.frames.slice(framesBefore).every((frame) => frame['method'] === 'event')).toBe(true);
    expect(cancels(client, sessionId)).toEqual([]);
    expect(harness.core.store.get((await client.call<{ session_key: string }>('session.activate', { session_id: sessionId })).session_key)?.messages.at(-1)?.text).toBe(
      'approval answered: {"choice":"once"}',
    );
  } finally {
    harness.close();
  }
});

test('an error response means "not answered"; a second response and an unknown id are dropped', async () => {
  const harness = full();
  try {
    const { client, sessionId, request } = await asked(harness, 'clarify');
    await client.send({ jsonrpc: '2.0', id: 'srq-000000000000', result: { answers: {} } });
    await client.send({ jsonrpc: '2.0', id: request['id'], error: { code: -32601, message: 'no handler for server request: clarify' } });
    await client.send({ jsonrpc: '2.0', id: request['id'], result: { answers: { q: 'late' } } });
    const complete = await client.waitForEvent('message.complete', sessionId);
    expect(complete['payload']).toMatchObject({ text: 'clarify not answered: the client answered with an error', status: 'complete' });
    await sleep(20);
    expect(completes(client, sessionId)).toHaveLength(1);
    expect(cancels(client, sessionId)).toEqual([]);
  } finally {
    harness.close();
  }
});

test('unanswered past serverRequestTimeoutMs: exactly one request.cancel {id, method, reason: "timeout"}; a late answer is dropped', async () => {
  const harness = full({ serverRequestTimeoutMs: 30 });
  try {
    const { client, sessionId, request } = await asked(harness, 'sudo');
    const complete = await client.waitForEvent('message.complete', sessionId);
    expect(complete['payload']).toMatchObject({ text: 'sudo not answered: timeout', status: 'complete' });
    expect(cancels(client, sessionId).map((event) => event['payload'])).toEqual([{ id: request['id'], method: 'sudo', reason: 'timeout' }]);
    await client.send({ jsonrpc: '2.0', id: request['id'], result: { value: 'pw' } });
    await sleep(20);
    expect(completes(client, sessionId)).toHaveLength(1);
    expect(cancels(client, sessionId)).toHaveLength(1);
  } finally {
    harness.close();
  }
});

test('session.interrupt withdraws the request (reason "interrupted") before the turn ends interrupted', async () => {
  const harness = full();
  try {
    const { client, sessionId, request } = await asked(harness);
    await client.call('session.interrupt', { session_id: sessionId });
    const types = client.events(sessionId).map((event) => event['type']);
    expect(types.slice(-2)).toEqual(['request.cancel', 'message.complete']);
    expect(cancels(client, sessionId)[0]?.['payload']).toEqual({ id: request['id'], method: 'approval', reason: 'interrupted' });
    expect(completes(client, sessionId)[0]?.['payload']).toMatchObject({ status: 'interrupted' });
    await client.send({ jsonrpc: '2.0', id: request['id'], result: { choice: 'deny' } });
    await sleep(20);
    expect(completes(client, sessionId)).toHaveLength(1);
  } finally {
    harness.close();
  }
});

test('session.close withdraws the open request once, with reason "session_closed"', async () => {
  const harness = full();
  try {
    const { client, sessionId, request } = await asked(harness, 'secret');
    expect(await client.call('session.close', { session_id: sessionId })).toEqual({ closed: true });
    expect(cancels(client, sessionId).map((event) => event['payload'])).toEqual([{ id: request['id'], method: 'secret', reason: 'session_closed' }]);
    expect(completes(client, sessionId)).toEqual([]);
  } finally {
    harness.close();
  }
});

test('a dropped owner leaves the request open: resume, activate and events.since list it, and answering it on the new connection completes the turn', async () => {
  const harness = full();
  try {
    const { client, sessionId, request } = await asked(harness, 'vault.code');
    const key = (await client.call<{ session_key: string }>('session.activate', { session_id: sessionId })).session_key;
    client.close(1006);
    await sleep(10);
    expect(harness.core.serverRequests.openFor(sessionId).map((entry) => entry.id)).toEqual([request['id']]);
    const back = harness.client();
    const entry = { id: request['id'], method: 'vault.code', params: request['params'] };
    const resumed = await back.call<{ session_id: string; open_requests: unknown[] }>('session.resume', { session_id: key });
    expect(resumed.session_id).toBe(sessionId);
    expect(resumed.open_requests).toEqual([entry]);
    expect((await back.call<{ open_requests: unknown[] }>('session.activate', { session_id: sessionId })).open_requests).toEqual([entry]);
    expect((await back.call<{ open_requests: unknown[] }>('session.events.since', { session_id: sessionId, last_seen: 0 })).open_requests).toEqual([entry]);
    await back.send({ jsonrpc: '2.0', id: request['id'], result: { value: '123456' } });
    const complete = await back.waitForEvent('message.complete', sessionId);
    expect(complete['payload']).toMatchObject({ text: 'vault.code answered: {"value":"123456"}', status: 'complete' });
    expect(harness.core.serverRequests.openFor(sessionId)).toEqual([]);
  } finally {
    harness.close();
  }
});

test('request.answer settles an open request by RPC ("ok"), and answers "expired" once it is gone', async () => {
  const harness = full();
  try {
    const { client, sessionId, request } = await asked(harness, 'window.read');
    expect(await client.call('request.answer', { id: request['id'], result: { value: '[]' } })).toEqual({ status: 'ok' });
    expect((await client.waitForEvent('message.complete', sessionId))['payload']).toMatchObject({ text: 'window.read answered: {"value":"[]"}' });
    expect(await client.call('request.answer', { id: request['id'], result: { value: '[]' } })).toEqual({ status: 'expired' });
  } finally {
    harness.close();
  }
});

test('/request of a method no document declares fails the turn; every declared request is sent with schema-valid params', async () => {
  const harness = full();
  try {
    const client = harness.client();
    const { session_id: sessionId } = await createReady(client);
    await client.call('prompt.submit', { session_id: sessionId, text: '/request no.such' });
    expect((await client.waitForEvent('error', sessionId))['payload']).toEqual({ message: 'no server request "no.such" is declared' });
    expect((await client.waitForEvent('message.complete', sessionId))['payload']).toMatchObject({ status: 'error' });
    const methods = [...harness.core.contracts.serverRequests.keys()];
    expect(methods).toHaveLength(14);
    for (const [index, method] of methods.entries()) {
      const asking = nextRequest(client, index);
      await client.call('prompt.submit', { session_id: sessionId, text: `/request ${method}` });
      const request = await asking;
      expect(request).toMatchObject({ method, params: { session_id: sessionId } });
      await client.send({ jsonrpc: '2.0', id: request['id'], error: { code: -32601, message: 'not here' } });
      await client.waitFor((frame) => (frame['params'] as Frame | undefined)?.['type'] === 'message.complete' && completes(client, sessionId).length === index + 2);
    }
    // The harness's strict callback has seen every request's params (a bad one is a violation, failing close()).
  } finally {
    harness.close();
  }
});

test('the session lifecycle document declares no server requests: /request fails the turn there', async () => {
  const harness = coreHarness();
  try {
    const client = harness.client();
    const { session_id: sessionId } = await createReady(client);
    await client.call('prompt.submit', { session_id: sessionId, text: '/request approval' });
    expect((await client.waitForEvent('error', sessionId))['payload']).toEqual({ message: 'no server request "approval" is declared' });
  } finally {
    harness.close();
  }
});
