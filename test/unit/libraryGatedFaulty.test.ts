import { expect, test } from '../../fixtures/library/index.js';
import { noAuth } from '../../src/client/connectionAuth.js';

// contract-gate/test with settings of test.use: the embedded gateway gated (a basic login and tickets made up for
// the run, as `contract-gate run --embedded-auth gated` makes them) and running a fault.
/** The machine is shared: waits are bounds on a hang, never the time a test expects to take. */
const PATIENT = 30_000;

test.use({ contractGate: { embeddedAuth: 'gated', fault: ['result.wrong-type'], requestTimeout: PATIENT } });
// One worker for the file: its worker-scoped settings (test.use) start an embedded gateway per worker, which parallel
// tests would pay once each.
test.describe.configure({ mode: 'default', timeout: 90_000 });

test('connections present tickets as run does; one without a credential is refused', async ({ gateway, target, connect }) => {
  expect([target.gated, target.auth.kind]).toEqual([true, 'ticket']);
  await expect(await gateway.request('session.list', {})).toMatchResultOf('session.list');
  await expect(connect({ auth: noAuth() })).rejects.toThrow(/closed the connection right after the handshake \(code 4401/);
});

test('the worker embeds the faulty gateway; its answer fails the judgement with the diff', async ({ gateway, expectResult }) => {
  const { session_id } = await gateway.request<{ session_id: string }>('session.create', {});
  await gateway.waitForEvent({ type: 'session.info', sessionId: session_id }, PATIENT);
  await gateway.request('prompt.submit', { session_id, text: 'hello' });
  await gateway.waitForEvent({ type: 'message.complete', sessionId: session_id }, PATIENT);
  const undone = await gateway.request('session.undo', { session_id });
  expect(() => expectResult('session.undo', undone)).toThrow('at /removed: must be integer');
});
