import { join } from 'node:path';
import { expect, test } from '../../fixtures/library/index.js';
import { HttpTransport } from '../../src/client/httpTransport.js';
import { REPO } from './helpers/cliRunner.js';

// The fixtures of contract-gate/test in this repository's own Playwright run: no configuration file here, so the
// defaults, the embedded reference gateway with the default profile's documents (other settings: the
// libraryGatedFaulty and libraryExternalTarget tests, since test.use of a worker option is one per file).

/** The machine is shared: waits are bounds on a hang, never the time a test expects to take. */
const PATIENT = 30_000;

// One worker for the file: its worker-scoped settings (test.use) start an embedded gateway per worker, which parallel
// tests would pay once each.
test.describe.configure({ mode: 'default', timeout: 90_000 });
test.use({ contractGate: { requestTimeout: PATIENT } });

const OLDER = join(REPO, 'profiles/hermes/contracts/gateway.pre-cwd-explicit.openrpc.json');

interface Created {
  session_id: string;
  stored_session_id: string;
}

test.describe('the embedded reference gateway', () => {
  test('gateway, events and the judgements: a match passes, a mismatch fails with its diff', async ({ gateway, events, contract, contracts, profile, target, expectResult, expectEvent }) => {
    expect([target.kind, profile.name, contract.title, contracts.length]).toEqual(['embedded', 'hermes', 'Hermes TUI/Desktop gateway', 2]);
    const created = await gateway.request<Created>('session.create', {});
    expectResult('session.create', created);
    await expect(created).toMatchResultOf('session.create');
    const info = await events.waitFor('session.info', { sessionId: created.session_id });
    expectEvent(info);
    expectEvent('session.info', info.payload);
    expect(events.list('session.info')).toContainEqual(info);

    expect(() => expectResult('session.undo', { removed: '1' })).toThrow(/at \/removed: must be integer\n\s+expected: \{"title":"Removed","type":"integer"\}\n\s+received: "1"/);
    expect(() => expect({ removed: '1' }).toMatchResultOf('session.undo')).toThrow('at /removed: must be integer');
    expect(() => expectEvent('session.resume_progress', { phase: 1 })).toThrow('at /phase: must be string');
    await expect({ removed: '1' }).not.toMatchResultOf('session.undo');
    expect(() => expect({ removed: 1 }).not.toMatchResultOf('session.undo')).toThrow('Expected a mismatch, but the result of session.undo matches its schema');
  });

  test('events.waitFor rejects with EVENT_TIMEOUT for an event that never comes; since skips the ones already received', async ({ gateway, events }) => {
    const { session_id } = await gateway.request<Created>('session.create', {});
    await events.waitFor('session.info', { sessionId: session_id });
    await expect(events.waitFor('session.info', { sessionId: session_id, since: events.length, timeout: 50 })).rejects.toThrow('EVENT_TIMEOUT');
  });

  test('connect opens more connections with the same auth, each with its own events', async ({ gateway, connect, events }) => {
    const other = await connect();
    const { session_id } = await other.request<Created>('session.create', {});
    await other.waitForEvent({ type: 'session.info', sessionId: session_id }, PATIENT);
    expect(events.list({ sessionId: session_id })).toEqual([]);
    expect(gateway.name).not.toBe(other.name);
  });

  test('referenceGateway: a known-bad peer with a fault, a known-good one, one serving an older document, and HTTP to it', async ({ referenceGateway, contract }) => {
    const faulty = await referenceGateway({ fault: ['result.wrong-type'] });
    const good = await referenceGateway();
    const undo = async (client: Awaited<ReturnType<typeof faulty.connect>>): Promise<unknown> => {
      const { session_id } = await client.request<Created>('session.create', {});
      await client.waitForEvent({ type: 'session.info', sessionId: session_id }, PATIENT);
      await client.request('prompt.submit', { session_id, text: 'hello' });
      await client.waitForEvent({ type: 'message.complete', sessionId: session_id }, PATIENT);
      return client.request('session.undo', { session_id });
    };
    expect(await undo(await faulty.connect())).toEqual({ removed: '2' });
    await expect(await undo(await good.connect())).toMatchResultOf('session.undo');

    const older = await referenceGateway({ contract: [OLDER] });
    expect(older.contracts[0]?.version).not.toBe(contract.version);
    await expect((await older.connect()).request('session.create', { cwd: '/tmp', cwd_explicit: true })).rejects.toThrow('cwd_explicit');
    expect(good.httpUrl).toMatch(/^http:\/\/.*\/api\/rpc$/);
    const overHttp = await good.connect({ target: good.httpUrl as string });
    expect(overHttp.protocol.transport).toBeInstanceOf(HttpTransport);
    await expect(await overHttp.request('session.list', {})).toMatchResultOf('session.list');
  });
});
