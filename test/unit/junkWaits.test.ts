import { expect, test } from './helpers/test.js';
import { join } from 'node:path';
import type { Exchange } from '../../core/index.js';
import { errorHygieneVerdict, invalidRequestVerdict } from '../../fixtures/envelopeCells.js';
import { JUNK_TIMEOUT_MS } from '../../fixtures/junk.js';
import type { RpcClient } from '../../src/client/rpcClient.js';
import { loadContractSync } from '../../src/contracts/index.js';
import type { RunPlan } from '../../src/run/runPlan.js';
import { FOREIGN_DIR } from '../foreignServers/childServer.js';
import { JSON_RPC } from './helpers/profiles.js';

// A target that ignores junk frames but keeps answering calls (an MCP server over stdio drops every malformed line)
// must not cost the full wait for every frame of a check: after two such frames in a row the rest wait briefly. The
// verdict is the same; a target that answers junk, or stops answering calls, keeps the full wait.

const plan = { contracts: [loadContractSync(join(FOREIGN_DIR, 'calculator.openrpc.json'))], profile: JSON_RPC } as unknown as RunPlan;

function fakeTarget(answersJunk: boolean, answersCalls: boolean): { client: RpcClient; waits: number[] } {
  const waits: number[] = [];
  const client = {
    isOpen: true,
    closeState: undefined,
    sendRaw: () => undefined,
    nextStrayFrame: (timeoutMs: number) => {
      waits.push(timeoutMs);
      return Promise.resolve(answersJunk ? JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } }) : undefined);
    },
    call: (method: string) =>
      Promise.resolve({ conn: 'c1', method, id: 'r', params: {}, requestText: '', elapsedMs: 1, correlation: 'exact', ...(answersCalls ? { response: { jsonrpc: '2.0', id: 'r', result: 3 } } : { failure: { code: 'REQUEST_TIMEOUT', message: 'no answer' } }) } as unknown as Exchange),
  } as unknown as RpcClient;
  return { client, waits };
}

test('junk ignored while calls are answered: two full waits, then short ones; the verdict counts every frame', async () => {
  const { client, waits } = fakeTarget(false, true);
  const verdict = await invalidRequestVerdict(client, plan);
  expect(waits.slice(0, 2)).toEqual([JUNK_TIMEOUT_MS, JUNK_TIMEOUT_MS]);
  expect(waits.length).toBeGreaterThan(4);
  expect(new Set(waits.slice(2))).toEqual(new Set([500]));
  expect(verdict.status).toBe('fail');
  expect(verdict.detail).toMatch(new RegExp(`^${waits.length} of ${waits.length} malformed requests broke the rule: `));
});

test('a target that answers junk, or stops answering calls, keeps the full wait for every frame', async () => {
  for (const [answersJunk, answersCalls] of [[true, true], [false, false]] as const) {
    const { client, waits } = fakeTarget(answersJunk, answersCalls);
    await invalidRequestVerdict(client, plan);
    expect(new Set(waits), `junk answered: ${answersJunk}, calls answered: ${answersCalls}`).toEqual(new Set([JUNK_TIMEOUT_MS]));
  }
});

test('the error-hygiene calls go out together: a target that leaves them unanswered costs one wait, not one per call', async () => {
  let open = 0;
  let most = 0;
  const settle: Array<() => void> = [];
  const client = {
    isOpen: true,
    call: (method: string, params: unknown) => {
      open++;
      most = Math.max(most, open);
      return new Promise<Exchange>((resolve) =>
        settle.push(() => {
          open--;
          const answered = !Array.isArray(params) && typeof params !== 'string';
          resolve({ conn: 'c1', method, id: 'r', params, requestText: '', elapsedMs: 1, correlation: 'exact', ...(answered ? { response: { jsonrpc: '2.0', id: 'r', error: { code: -32601, message: 'Method not found' } } } : { failure: { code: 'REQUEST_TIMEOUT', message: 'no answer' } }) } as unknown as Exchange);
        }),
      );
    },
  } as unknown as RpcClient;
  const judged = errorHygieneVerdict(client, { ...plan, config: {} } as unknown as RunPlan);
  await new Promise((resolve) => setImmediate(resolve));
  expect(most, 'every call sent before any was answered').toBe(3);
  for (const done of settle) done();
  expect(await judged).toMatchObject({ status: 'pass', detail: '1 error answer judged, none carrying a stack trace, a file path or a secret' });
});
