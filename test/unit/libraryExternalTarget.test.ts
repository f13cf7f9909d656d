import { join } from 'node:path';
import { expect, test } from '../../fixtures/library/index.js';
import { noAuth } from '../../src/client/connectionAuth.js';
import { HttpTransport } from '../../src/client/httpTransport.js';
import { StdioTransport } from '../../src/client/stdioTransport.js';
import { WebSocketTransport } from '../../src/client/wsTransport.js';
import { CLI, REPO, serveCli } from './helpers/cliRunner.js';

// contract-gate/test against an external target that needs a token, named by variable: the configured target is
// its HTTP endpoint; `connect({ target })` reaches it over WebSocket, and a stdio gateway, with the same client.
const SLICE = join(REPO, 'profiles/hermes/contracts/session-lifecycle.openrpc.json');
const TOKEN_ENV = 'CONTRACT_GATE_LIBRARY_TEST_TOKEN';
let wsUrl = '';
/** The machine is shared: waits are bounds on a hang, never the time a test expects to take. */
const PATIENT = 30_000;

test.use({
  contractGate: [
    async ({}, use) => {
      process.env[TOKEN_ENV] = 'library-test-token';
      const served = await serveCli(['--contract', SLICE, '--token-env', TOKEN_ENV]);
      wsUrl = served.url;
      await use({ target: served.url.replace(/^ws:/, 'http:').replace(/\/api\/ws$/, '/api/rpc'), contract: [SLICE], tokenEnv: TOKEN_ENV, requestTimeout: PATIENT });
      served.stop();
    },
    { scope: 'worker' },
  ],
});
// One worker for the file: its worker-scoped settings (test.use) start an embedded gateway per worker, which parallel
// tests would pay once each.
test.describe.configure({ mode: 'default', timeout: 90_000 });

test('the gateway fixture speaks JSON-RPC over HTTP with the token; without it the target refuses', async ({ gateway, target, connect, contract }) => {
  expect([target.kind, target.auth.kind, contract.origin]).toEqual(['external', 'token', SLICE]);
  expect(gateway.protocol.transport).toBeInstanceOf(HttpTransport);
  await expect(await gateway.request('session.create', {})).toMatchResultOf('session.create');
  const refused = await connect({ auth: noAuth() });
  const exchange = await refused.call('session.list', {});
  expect(exchange.response).not.toHaveProperty('result');
});

test('connect reaches the same gateway over WebSocket (with its events) and a stdio gateway', async ({ connect }) => {
  const ws = await connect({ target: wsUrl });
  expect(ws.protocol.transport).toBeInstanceOf(WebSocketTransport);
  const { session_id } = await ws.request<{ session_id: string }>('session.create', {});
  await expect(ws.waitForEvent({ type: 'session.info', sessionId: session_id }, PATIENT)).resolves.toMatchObject({ type: 'session.info' });
  await expect(connect({ target: wsUrl, auth: noAuth() })).rejects.toThrow('4401');

  const stdioTarget = `stdio:node ${CLI} serve --stdio --contract ${SLICE}`;
  const stdio = await connect({ target: stdioTarget, auth: noAuth() });
  expect(stdio.protocol.transport).toBeInstanceOf(StdioTransport);
  await expect(await stdio.request('session.create', {})).toMatchResultOf('session.create');
  // As `contract-gate run` does: a quiet connection's process is continued by the next connection, unless told not to.
  const pidOf = (client: typeof stdio): number | undefined => (client.protocol.transport as StdioTransport).pid;
  const first = pidOf(stdio);
  expect(await stdio.close()).toEqual({ code: 0, reason: 'kept running' });
  const next = await connect({ target: stdioTarget, auth: noAuth() });
  expect(pidOf(next), 'the same process').toBe(first);
  expect(next.ready?.type, 'its gateway.ready, sent once').toBe('gateway.ready');
  await next.close();
  const apart = await connect({ target: stdioTarget, auth: noAuth(), stdio: { reuse: false } });
  expect(pidOf(apart), 'a process of its own').not.toBe(first);
});
