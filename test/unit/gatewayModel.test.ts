import { test } from './helpers/test.js';
import fc from 'fast-check';
import type { MemoryClient } from '../../gateway/index.js';
import { type CoreHarness, coreHarness, FULL_CONTRACT, HERMES_CONTRACT, rpcError } from './helpers/gatewayHarness.js';
import { expectContains, expectEqual, expectFields, expectIs } from './helpers/fastExpect.js';

/**
 * Model-based property: random lifecycle sequences over several connections against a simple model of stored rows
 * and live sessions. Invariants: a stored row is never lost without session.delete; delete is refused while live;
 * seq increases by exactly one per session; message_count equals the history; a closed session stays resumable.
 */

const CONNECTIONS = 3;
const RUNS = 200;

interface Handle {
  runtimeId: string;
  key: string;
  /** Index of the connection the session is bound to; -1 once detached by a drop. */
  conn: number;
  closeOnDisconnect: boolean;
  live: boolean;
}

interface Model {
  handles: Handle[];
  /** Stored rows: key → committed message count. */
  rows: Map<string, number>;
}

interface Real {
  harness: CoreHarness;
  clients: MemoryClient[];
  everyClient: MemoryClient[];
}

type Cmd = fc.AsyncCommand<Model, Real>;

const liveHandles = (m: Readonly<Model>) => m.handles.filter((h) => h.live);
const pickFrom = <T>(list: readonly T[], pick: number): T => list[pick % list.length] as T;

async function storedKeys(real: Real): Promise<string[]> {
  const result = await real.clients[0]?.call<{ sessions: Array<{ id: string }> }>('session.list', { include_hidden: true });
  return result?.sessions.map((row) => row.id) ?? [];
}

/** Resolves when the session's current turn ends (committed or failed), wherever its events are routed. */
function turnEnded(real: Real, sessionId: string): Promise<void> {
  return new Promise((resolve) => {
    const offs = [
      real.harness.core.lifecycle.on('turn.committed', (event) => event.sessionId === sessionId && done()),
      real.harness.core.lifecycle.on('turn.failed', (event) => event.sessionId === sessionId && done()),
    ];
    const done = () => {
      offs.forEach((off) => off());
      resolve();
    };
  });
}

class Create implements Cmd {
  constructor(readonly conn: number, readonly closeOnDisconnect: boolean) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const created = await r.clients[this.conn]!.call<{ session_id: string; stored_session_id: string; message_count: number }>('session.create', { close_on_disconnect: this.closeOnDisconnect });
    expectIs(created.message_count, 0);
    m.handles.push({ runtimeId: created.session_id, key: created.stored_session_id, conn: this.conn, closeOnDisconnect: this.closeOnDisconnect, live: true });
  }
  toString = () => `Create(conn=${this.conn}, cod=${this.closeOnDisconnect})`;
}

class Prompt implements Cmd {
  constructor(readonly pick: number, readonly fail: boolean) {}
  check = (m: Readonly<Model>) => liveHandles(m).length > 0;
  async run(m: Model, r: Real) {
    const handle = pickFrom(liveHandles(m), this.pick);
    const ended = turnEnded(r, handle.runtimeId);
    expectFields(await r.clients[0]!.call('prompt.submit', { session_id: handle.runtimeId, text: this.fail ? '/fail on purpose' : 'hello' }), { status: 'streaming' });
    await ended;
    m.rows.set(handle.key, (m.rows.get(handle.key) ?? 0) + (this.fail ? 0 : 2));
    const history = await r.clients[0]!.call<{ count: number }>('session.history', { session_id: handle.runtimeId });
    expectIs(history.count, m.rows.get(handle.key));
  }
  toString = () => `Prompt(${this.pick}, fail=${this.fail})`;
}

class Close implements Cmd {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.handles.length > 0;
  async run(m: Model, r: Real) {
    const handle = pickFrom(m.handles, this.pick);
    expectFields(await r.clients[1]!.call('session.close', { session_id: handle.runtimeId }), { closed: handle.live });
    handle.live = false;
    if (m.rows.has(handle.key)) expectContains(await storedKeys(r), handle.key);
  }
  toString = () => `Close(${this.pick})`;
}

class Delete implements Cmd {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.handles.length > 0;
  async run(m: Model, r: Real) {
    const key = pickFrom(m.handles, this.pick).key;
    const call = r.clients[2]!.call('session.delete', { session_id: key });
    if (m.handles.some((h) => h.live && h.key === key)) expectIs((await rpcError(call)).code, 4023);
    else if (!m.rows.has(key)) expectIs((await rpcError(call)).code, 4007);
    else {
      expectFields(await call, { deleted: key });
      m.rows.delete(key);
    }
  }
  toString = () => `Delete(${this.pick})`;
}

class Resume implements Cmd {
  constructor(readonly pick: number, readonly conn: number) {}
  check = (m: Readonly<Model>) => m.handles.length > 0;
  async run(m: Model, r: Real) {
    const key = pickFrom(m.handles, this.pick).key;
    const live = m.handles.find((h) => h.live && h.key === key);
    const call = r.clients[this.conn]!.call<{ session_id: string; message_count: number }>('session.resume', { session_id: key });
    if (!m.rows.has(key) && !live) {
      expectIs((await rpcError(call)).code, 4007);
      return;
    }
    const snapshot = await call;
    expectIs(snapshot.message_count, m.rows.get(key) ?? 0);
    if (live) {
      expectIs(snapshot.session_id, live.runtimeId);
      live.conn = this.conn;
    } else {
      expectIs(m.handles.some((h) => h.runtimeId === snapshot.session_id), false);
      m.handles.push({ runtimeId: snapshot.session_id, key, conn: this.conn, closeOnDisconnect: false, live: true });
    }
  }
  toString = () => `Resume(${this.pick}, conn=${this.conn})`;
}

class Undo implements Cmd {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => liveHandles(m).length > 0;
  async run(m: Model, r: Real) {
    const handle = pickFrom(liveHandles(m), this.pick);
    const count = m.rows.get(handle.key) ?? 0;
    expectFields(await r.clients[0]!.call('session.undo', { session_id: handle.runtimeId }), { removed: count >= 2 ? 2 : 0 });
    if (m.rows.has(handle.key)) m.rows.set(handle.key, Math.max(0, count - 2));
  }
  toString = () => `Undo(${this.pick})`;
}

class Drop implements Cmd {
  constructor(readonly conn: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    r.clients[this.conn]!.close(1006, 'dropped');
    for (const handle of m.handles) {
      if (!handle.live || handle.conn !== this.conn) continue;
      if (handle.closeOnDisconnect) handle.live = false;
      else handle.conn = -1;
    }
    const fresh = r.harness.client();
    r.clients[this.conn] = fresh;
    r.everyClient.push(fresh);
    for (const handle of m.handles) expectIs(r.harness.core.live.get(handle.runtimeId) !== undefined, handle.live);
  }
  toString = () => `Drop(conn=${this.conn})`;
}

const conn = fc.integer({ min: 0, max: CONNECTIONS - 1 });
const pick = fc.nat({ max: 1000 });
const commandArbs = [
  fc.tuple(conn, fc.boolean()).map(([c, cod]) => new Create(c, cod)),
  fc.tuple(pick, fc.boolean()).map(([p, fail]) => new Prompt(p, fail)),
  fc.tuple(pick, fc.constant(false)).map(([p]) => new Prompt(p, false)),
  pick.map((p) => new Close(p)),
  pick.map((p) => new Delete(p)),
  fc.tuple(pick, conn).map(([p, c]) => new Resume(p, c)),
  pick.map((p) => new Undo(p)),
  conn.map((c) => new Drop(c)),
];

async function finalChecks(m: Model, r: Real): Promise<void> {
  // No stored row lost: exactly the model's rows are stored.
  expectEqual((await storedKeys(r)).sort(), [...m.rows.keys()].sort());
  for (const handle of m.handles) {
    const replay = await r.clients[0]!.call<{ events: Array<{ seq: number }>; latest_seq: number; truncated: boolean }>('session.events.since', { session_id: handle.runtimeId, last_seen: 0 });
    expectIs(replay.truncated, false);
    expectEqual(replay.events.map((event) => event.seq), Array.from({ length: replay.latest_seq }, (_, i) => i + 1));
  }
  const outOfOrder: string[] = [];
  for (const [index, client] of r.everyClient.entries()) {
    const last = new Map<string, number>();
    for (const event of client.events()) {
      const session = String(event['session_id'] ?? '');
      if (!session) continue;
      const seq = Number(event['seq']);
      if (!(seq > (last.get(session) ?? 0))) outOfOrder.push(`client ${index}, ${session}: seq ${seq} after ${last.get(session) ?? 0}`);
      last.set(session, seq);
    }
  }
  expectEqual(outOfOrder, [], 'every client sees each session\'s events in increasing seq order');
}

for (const [document, contract] of [['the session lifecycle document', HERMES_CONTRACT], ['the full document', FULL_CONTRACT]] as const) {
  test(`random lifecycle sequences over ${CONNECTIONS} connections keep the model's invariants (${RUNS} runs, ${document})`, async () => {
    test.setTimeout(90_000);
    await fc.assert(
      fc.asyncProperty(fc.commands(commandArbs, { maxCommands: 24 }), async (commands) => {
        const harness = coreHarness({ contractPaths: [contract], buildDelayMs: 0, orphanGraceMs: 600_000 });
        const clients = Array.from({ length: CONNECTIONS }, () => harness.client());
        const real: Real = { harness, clients, everyClient: [...clients] };
        const model: Model = { handles: [], rows: new Map() };
        try {
          await fc.asyncModelRun(() => ({ model, real }), commands);
          await finalChecks(model, real);
        } finally {
          harness.close();
        }
      }),
      { numRuns: RUNS, interruptAfterTimeLimit: 80_000, markInterruptAsFailure: true },
    );
  });
}
