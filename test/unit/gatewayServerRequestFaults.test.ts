import { expect, test } from './helpers/test.js';
import type { MemoryClient } from '../../gateway/index.js';
import { type CoreHarness, coreHarness, createReady, FULL_CONTRACT, sleep } from './helpers/gatewayHarness.js';

type Frame = Record<string, unknown>;

test.describe.configure({ mode: 'parallel' });

const faulty = (fault: string, serverRequestTimeoutMs = 30_000): CoreHarness => coreHarness({ contractPaths: [FULL_CONTRACT], faults: [fault], serverRequestTimeoutMs });

const ofType = (client: MemoryClient, sessionId: string, type: string): Frame[] => client.events(sessionId).filter((event) => event['type'] === type);

async function asked(harness: CoreHarness, method = 'approval'): Promise<{ client: MemoryClient; sessionId: string; request: Frame }> {
  const client = harness.client();
  const { session_id: sessionId } = await createReady(client);
  await client.call('prompt.submit', { session_id: sessionId, text: `/request ${method}` });
  const request = await client.waitFor((frame) => frame['method'] === method && 'id' in frame);
  return { client, sessionId, request };
}

test('server-request.invalid-params: the live frame breaks its schema; open_requests, answers and withdrawals stay right', async () => {
  const harness = faulty('server-request.invalid-params', 40);
  try {
    const { client, sessionId, request } = await asked(harness);
    const params = request['params'] as Frame;
    expect(params['session_id']).toBe(sessionId);
    expect(params['request_id']).toBe(12345);
    const [open] = (await client.call<{ open_requests: Array<{ params: Frame }> }>('session.activate', { session_id: sessionId })).open_requests;
    expect(typeof open?.params['request_id']).toBe('string');
    await client.send({ jsonrpc: '2.0', id: request['id'], result: { choice: 'once' } });
    expect((await client.waitForEvent('message.complete', sessionId))['payload']).toMatchObject({ text: 'approval answered: {"choice":"once"}' });
    const second = client.waitFor((frame) => frame['method'] === 'sudo');
    await client.call('prompt.submit', { session_id: sessionId, text: '/request sudo' });
    expect(((await second)['params'] as Frame)['command']).toBe(12345);
    await client.waitForEvent('request.cancel', sessionId);
  } finally {
    harness.close();
  }
});

test('server-request.never-cancels: no request.cancel on timeout or interrupt; everything else unchanged', async () => {
  const harness = faulty('server-request.never-cancels', 40);
  try {
    const { client, sessionId } = await asked(harness);
    expect((await client.waitForEvent('message.complete', sessionId))['payload']).toMatchObject({ text: 'approval not answered: timeout' });
    await client.call('prompt.submit', { session_id: sessionId, text: '/request clarify' });
    await client.waitFor((frame) => frame['method'] === 'clarify');
    expect((await client.call<{ open_requests: unknown[] }>('session.events.since', { session_id: sessionId, last_seen: 0 })).open_requests).toHaveLength(1);
    await client.call('session.interrupt', { session_id: sessionId });
    expect(ofType(client, sessionId, 'request.cancel')).toEqual([]);
    expect((await client.call<{ events: Frame[] }>('session.events.since', { session_id: sessionId, last_seen: 0 })).events.some((event) => event['type'] === 'request.cancel')).toBe(false);
  } finally {
    harness.close();
  }
});

test('server-request.forgets-open-on-resume: resume, activate and events.since answer open_requests: [] although one is open', async () => {
  const harness = faulty('server-request.forgets-open-on-resume');
  try {
    const { client, sessionId, request } = await asked(harness);
    const key = (await client.call<{ session_key: string; open_requests: unknown[] }>('session.activate', { session_id: sessionId })).session_key;
    client.close(1006);
    const back = harness.client();
    expect((await back.call<{ open_requests: unknown[] }>('session.resume', { session_id: key })).open_requests).toEqual([]);
    expect((await back.call<{ open_requests: unknown[] }>('session.events.since', { session_id: sessionId, last_seen: 0 })).open_requests).toEqual([]);
    expect(harness.core.serverRequests.openFor(sessionId)).toHaveLength(1);
    await back.send({ jsonrpc: '2.0', id: request['id'], result: { choice: 'deny' } });
    expect((await back.waitForEvent('message.complete', sessionId))['payload']).toMatchObject({ text: 'approval answered: {"choice":"deny"}' });
  } finally {
    harness.close();
  }
});

test('server-request.answer-ignored: a valid answer closes the request but the turn never finishes; error answers still do', async () => {
  const harness = faulty('server-request.answer-ignored', 60);
  try {
    const { client, sessionId, request } = await asked(harness);
    await client.send({ jsonrpc: '2.0', id: request['id'], result: { choice: 'once' } });
    await sleep(120);
    expect(ofType(client, sessionId, 'message.complete')).toEqual([]);
    expect(ofType(client, sessionId, 'request.cancel')).toEqual([]);
    expect(harness.core.serverRequests.openFor(sessionId)).toEqual([]);
    expect(await client.call('session.interrupt', { session_id: sessionId })).toMatchObject({ status: 'interrupted' });
    const next = client.waitFor((frame) => frame['method'] === 'sudo');
    await client.call('prompt.submit', { session_id: sessionId, text: '/request sudo' });
    await client.send({ jsonrpc: '2.0', id: (await next)['id'], error: { code: -32603, message: 'crashed' } });
    expect((await client.waitForEvent('message.complete', sessionId, (params) => (params['payload'] as Frame)['status'] === 'complete'))['payload']).toMatchObject({
      text: 'sudo not answered: the client answered with an error',
    });
  } finally {
    harness.close();
  }
});
