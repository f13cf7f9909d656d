import * as fc from 'fast-check';
import { type Exchange, isJsonObject, type JsonObject, type JsonValue } from '../../../core/index.js';
import type { Observation, StatefulCommand } from '../engine/statefulTypes.js';
import * as m from './hermesModel.js';
import type { HermesState } from './hermesModel.js';
import { Expect, lengthOf, observed, outcomeClass, resultOf, sweepSeq } from './hermesObserve.js';
import type { HermesPort } from './hermesPort.js';
import { broke } from './hermesRules.js';

type Command = StatefulCommand<HermesState, HermesPort>;

const MAX_SESSIONS = 8;
const DELETE_ACTIVE = 4023;
const STORED_NOT_FOUND = 4007;
const SESSION_NOT_FOUND = 4001;
const NOTHING_TO_BRANCH = 4008;

const pick = fc.nat({ max: 63 });
const word = fc.stringMatching(/^[a-z]{1,8}( [a-z]{1,8})?$/);
const num = (args: JsonObject, key: string): number => (typeof args[key] === 'number' ? args[key] : 0);
const text = (args: JsonObject, key: string): string => (typeof args[key] === 'string' ? args[key] : '');
const optionalText = (args: JsonObject, key: string): string | null => (typeof args[key] === 'string' ? args[key] : null);
const client = (args: JsonObject): m.ClientName => (args['client'] === 'b' ? 'b' : 'a');

const attached = (state: Readonly<HermesState>): number[] => m.sessionsWhere(state, (session) => m.isAttached(state, session));
const live = (state: Readonly<HermesState>): number[] => m.sessionsWhere(state, (session) => session.live);
const any = (state: Readonly<HermesState>): number[] => state.sessions.map((_, index) => index);
const closedOnes = (state: Readonly<HermesState>): number[] => m.sessionsWhere(state, (session) => !session.live);

const sessionOf = (state: Readonly<HermesState>, candidates: (state: Readonly<HermesState>) => number[], args: JsonObject): number | undefined => m.choose(candidates(state), num(args, 's'));
const rowOfSession = (state: Readonly<HermesState>, session: number): m.ModelRow => state.rows[state.sessions[session]?.row ?? -1] as m.ModelRow;
const boundClient = (state: Readonly<HermesState>, session: number): m.ClientName => state.sessions[session]?.boundTo ?? 'a';

const isError = (exchange: Exchange, code: number): boolean => outcomeClass(exchange) === `error ${code}`;
const shown = (exchange: Exchange): string => (exchange.responseText ?? exchange.failure?.message ?? '(nothing)').slice(0, 200);

/** Registers a new id in the book (a placeholder when the call failed, so model indexes stay aligned). */
function register(list: string[], port: HermesPort, id: JsonValue | undefined, expect: Expect, what: string): void {
  if (typeof id === 'string') {
    expect.that(!port.ids.issued.has(id), () => broke('ids.fresh', `${what} handed out ${port.ids.refOf(id)}'s id ${id} again`));
    port.ids.issued.add(id);
    list.push(id);
  } else {
    list.push(`(no ${what} id at step)`);
  }
}

/** Waits for the `session.info` that follows a create, resume or branch (the agent build), so that the next step starts settled. */
async function settleInfo(port: HermesPort, on: m.ClientName, sessionId: string, since: number): Promise<void> {
  await port.waitEvent(on, { type: 'session.info', sessionId, since }, port.settleTimeoutMs);
}

/** Waits until `count` message.complete events of the session arrived after `since`; returns their payloads. */
async function completions(port: HermesPort, on: m.ClientName, sessionId: string, since: number, count: number): Promise<JsonObject[]> {
  const done = (): JsonObject[] => port.eventsSince(on, sessionId, since).filter((event) => event.type === 'message.complete').map((event) => (isJsonObject(event.payload) ? event.payload : {}));
  await port.waitEvent(on, { type: 'message.complete', sessionId, since, where: () => done().length >= count }, port.turnTimeoutMs);
  return done();
}

const create: Command = {
  name: 'create',
  args: fc.record({ title: word }, { requiredKeys: [] }),
  weight: 3,
  check: (state) => state.sessions.length < MAX_SESSIONS,
  async run(_state, port, args) {
    const title = optionalText(args, 'title');
    const since = port.eventMark('a');
    const exchange = await port.call('a', 'session.create', title === null ? {} : { title });
    const result = resultOf(exchange);
    const expect = new Expect();
    expect.that(result !== undefined, () => broke('ids.fresh', `session.create answered ${shown(exchange)}`));
    register(port.ids.sessions, port, result?.['session_id'], expect, 'runtime session');
    register(port.ids.rows, port, result?.['stored_session_id'], expect, 'stored session');
    expect.that(result === undefined || (result['message_count'] === 0 && lengthOf(result['messages']) === 0), () => broke('create.empty', `session.create answered message_count ${JSON.stringify(result?.['message_count'])} and ${lengthOf(result?.['messages'])} messages`));
    if (typeof result?.['session_id'] === 'string') await settleInfo(port, 'a', result['session_id'], since);
    return observed(port, exchange, { message_count: result?.['message_count'] ?? null }, expect.violations);
  },
  update: (state, args) => m.created(state, optionalText(args, 'title')),
};

const submit: Command = {
  name: 'submit',
  args: fc.record({ s: pick, text: word }),
  weight: 4,
  check: (state, args) => sessionOf(state, attached, args) !== undefined,
  async run(state, port, args) {
    const session = sessionOf(state, attached, args) as number;
    const on = boundClient(state, session);
    const id = port.ids.session(session);
    const since = port.eventMark(on);
    const exchange = await port.call(on, 'prompt.submit', { session_id: id, text: text(args, 'text') });
    const status = resultOf(exchange)?.['status'] ?? null;
    const expect = new Expect();
    expect.that(status === 'streaming', () => broke('turn.runs-once', `prompt.submit on idle s${session} answered ${shown(exchange)}, not status streaming`));
    const done = await completions(port, on, id, since, 1);
    expect.that(done.length === 1, () => broke('turn.runs-once', `s${session}'s turn sent ${done.length} message.complete within ${port.turnTimeoutMs} ms, not 1`));
    return observed(port, exchange, { status, completions: done.length }, expect.violations);
  },
  update: (state, args) => m.turnsDone(state, sessionOf(state, attached, args) as number, 1),
};

const submitPair: Command = {
  name: 'submitPair',
  args: fc.record({ s: pick, first: word, second: word, fromB: fc.boolean() }),
  weight: 2,
  check: (state, args) => sessionOf(state, attached, args) !== undefined,
  async run(state, port, args) {
    const session = sessionOf(state, attached, args) as number;
    const on = boundClient(state, session);
    const other: m.ClientName = args['fromB'] === true && state.bOpen ? 'b' : on;
    const id = port.ids.session(session);
    const since = port.eventMark(on);
    const [one, two] = await Promise.all([port.call(on, 'prompt.submit', { session_id: id, text: text(args, 'first') }), port.call(other, 'prompt.submit', { session_id: id, text: text(args, 'second') })]);
    const statuses = [resultOf(one)?.['status'] ?? null, resultOf(two)?.['status'] ?? null].map(String).sort();
    const expect = new Expect();
    // One streams and one queues while it streams; both stream when the first turn ended before the second
    // arrived (a fast agent on a real gateway). Either way both must run, exactly once each.
    const accepted = statuses.join() === 'queued,streaming' || statuses.join() === 'streaming,streaming';
    expect.that(accepted, () => broke('turn.runs-once', `two prompts sent at once to s${session} answered ${shown(one)} and ${shown(two)}, not one streaming and one queued (or both streaming)`));
    const done = await completions(port, on, id, since, 2);
    expect.that(done.length === 2, () => broke('turn.runs-once', `two prompts sent at once to s${session} completed ${done.length} turn(s) within ${port.turnTimeoutMs} ms, not 2`));
    return observed(port, one, { accepted, completions: done.length, second: outcomeClass(two) }, expect.violations);
  },
  update: (state, args) => m.turnsDone(state, sessionOf(state, attached, args) as number, 2),
};

const close: Command = {
  name: 'close',
  args: fc.record({ s: pick }),
  weight: 2,
  check: (state, args) => sessionOf(state, live, args) !== undefined,
  async run(state, port, args) {
    const session = sessionOf(state, live, args) as number;
    const exchange = await port.call('a', 'session.close', { session_id: port.ids.session(session) });
    const closedFlag = resultOf(exchange)?.['closed'] ?? null;
    const expect = new Expect();
    expect.that(closedFlag === true, () => broke('close.once', `session.close of live s${session} answered ${shown(exchange)}, not closed: true`));
    return observed(port, exchange, { closed: closedFlag }, expect.violations);
  },
  update: (state, args) => m.closed(state, sessionOf(state, live, args) as number),
};

const closeAgain: Command = {
  name: 'closeAgain',
  args: fc.record({ s: pick }),
  check: (state, args) => sessionOf(state, closedOnes, args) !== undefined,
  async run(state, port, args) {
    const session = sessionOf(state, closedOnes, args) as number;
    const exchange = await port.call('a', 'session.close', { session_id: port.ids.session(session) });
    const closedFlag = resultOf(exchange)?.['closed'] ?? null;
    const expect = new Expect();
    expect.that(closedFlag === false || isError(exchange, SESSION_NOT_FOUND), () => broke('close.once', `session.close of already closed s${session} answered ${shown(exchange)}, not closed: false or ${SESSION_NOT_FOUND}`));
    return observed(port, exchange, { closed: closedFlag }, expect.violations);
  },
  update: () => undefined,
};

const resumable = (state: Readonly<HermesState>): number[] => m.rowsWhere(state, (row) => row.persisted && !row.deleted);

const resume: Command = {
  name: 'resume',
  args: fc.record({ r: pick }),
  weight: 3,
  check: (state, args) => m.choose(resumable(state), num(args, 'r')) !== undefined && state.sessions.length < MAX_SESSIONS + 4,
  async run(state, port, args) {
    const rowIndex = m.choose(resumable(state), num(args, 'r')) as number;
    const row = state.rows[rowIndex] as m.ModelRow;
    const liveSession = m.liveSessionOfRow(state, rowIndex);
    const since = port.eventMark('a');
    const exchange = await port.call('a', 'session.resume', { session_id: port.ids.row(rowIndex) });
    const result = resultOf(exchange);
    const expect = new Expect();
    const runtime = result?.['session_id'];
    if (liveSession !== undefined) {
      expect.that(runtime === port.ids.session(liveSession), () => broke('resume.same', `session.resume of r${rowIndex}, whose session s${liveSession} is live, answered ${result ? `runtime id ${port.ids.refOf(runtime)}` : shown(exchange)}`));
    } else {
      expect.that(result !== undefined, () => broke('resume.same', `session.resume of stored r${rowIndex} answered ${shown(exchange)}`));
      register(port.ids.sessions, port, runtime, expect, 'resumed runtime session');
    }
    const count = result?.['message_count'] ?? null;
    const messages = lengthOf(result?.['messages']);
    expect.that(result === undefined || (count === m.messagesOf(row) && messages === m.messagesOf(row)), () => broke('resume.same', `session.resume of r${rowIndex} (${row.turns} turn(s) stored) answered message_count ${JSON.stringify(count)} and ${messages} messages, not ${m.messagesOf(row)}`));
    if (liveSession === undefined && typeof runtime === 'string') await settleInfo(port, 'a', runtime, since);
    return observed(port, exchange, { message_count: count, messages, reused: liveSession !== undefined ? runtime === port.ids.session(liveSession) : null }, expect.violations);
  },
  update: (state, args) => m.resumed(state, m.choose(resumable(state), num(args, 'r')) as number, 'a'),
};

const activate: Command = {
  name: 'activate',
  args: fc.record({ s: pick, client: fc.constantFrom('a', 'b') }),
  weight: 2,
  check: (state, args) => sessionOf(state, any, args) !== undefined,
  async run(state, port, args) {
    const session = sessionOf(state, any, args) as number;
    const on = client(args);
    if (on === 'b' && !state.bOpen) await port.open('b');
    const exchange = await port.call(on, 'session.activate', { session_id: port.ids.session(session) });
    const result = resultOf(exchange);
    const expect = new Expect();
    const target = state.sessions[session] as m.ModelSession;
    const row = rowOfSession(state, session);
    if (target.live) {
      expect.that(result?.['session_id'] === port.ids.session(session) && result['message_count'] === m.messagesOf(row), () => broke('resume.same', `session.activate of live s${session} from client ${on} answered ${shown(exchange)}, not its runtime id with message_count ${m.messagesOf(row)}`));
    } else {
      expect.that(isError(exchange, SESSION_NOT_FOUND), () => broke('closed.gone', `session.activate of closed s${session} answered ${shown(exchange)}, not ${SESSION_NOT_FOUND}`));
    }
    return observed(port, exchange, { message_count: result?.['message_count'] ?? null }, expect.violations);
  },
  update: (state, args) => {
    if (client(args) === 'b') m.attachedB(state);
    m.activated(state, sessionOf(state, any, args) as number, client(args));
  },
};

const detachB: Command = {
  name: 'detachB',
  args: fc.constant({}),
  check: (state) => state.bOpen,
  async run(_state, port) {
    await port.closeClient('b');
    return observed(port, undefined, {}, []);
  },
  update: (state) => m.dropped(state, 'b'),
};

const reconnect: Command = {
  name: 'reconnect',
  args: fc.constant({}),
  check: () => true,
  async run(_state, port) {
    const before = sweepSeq(port);
    await port.reconnect('a');
    return observed(port, undefined, {}, before);
  },
  update: (state) => m.dropped(state, 'a'),
  describe: () => 'reconnect (drop client a abnormally, open a new connection)',
};

const remove: Command = {
  name: 'delete',
  args: fc.record({ r: pick }),
  weight: 2,
  check: (state, args) => m.choose(state.rows.map((_, index) => index), num(args, 'r')) !== undefined,
  async run(state, port, args) {
    const rowIndex = m.choose(state.rows.map((_, index) => index), num(args, 'r')) as number;
    const row = state.rows[rowIndex] as m.ModelRow;
    const key = port.ids.row(rowIndex);
    const exchange = await port.call('a', 'session.delete', { session_id: key });
    const expect = new Expect();
    const liveSession = m.liveSessionOfRow(state, rowIndex);
    if (liveSession !== undefined) {
      expect.that(isError(exchange, DELETE_ACTIVE), () => broke('delete.live-refused', `session.delete of r${rowIndex}, whose session s${liveSession} is live, answered ${shown(exchange)}, not ${DELETE_ACTIVE}`));
    } else if (row.persisted && !row.deleted) {
      expect.that(resultOf(exchange)?.['deleted'] === key, () => broke('delete.live-refused', `session.delete of stored r${rowIndex} answered ${shown(exchange)}, not {deleted: "${key}"}`));
    } else {
      expect.that(isError(exchange, STORED_NOT_FOUND), () => broke('delete.live-refused', `session.delete of r${rowIndex} (${row.deleted ? 'deleted' : 'never persisted'}) answered ${shown(exchange)}, not ${STORED_NOT_FOUND}`));
    }
    return observed(port, exchange, {}, expect.violations);
  },
  update: (state, args) => m.deleted(state, m.choose(state.rows.map((_, index) => index), num(args, 'r')) as number),
};

const list: Command = {
  name: 'list',
  args: fc.constant({}),
  weight: 2,
  check: () => true,
  async run(state, port) {
    const exchange = await port.call('a', 'session.list', {});
    const listed = resultOf(exchange)?.['sessions'];
    const entries = Array.isArray(listed) ? listed.filter(isJsonObject) : [];
    const expect = new Expect();
    expect.that(Array.isArray(listed), () => broke('list.rows', `session.list answered ${shown(exchange)}`));
    const rows: JsonObject[] = [];
    state.rows.forEach((row, index) => {
      const entry = entries.find((candidate) => candidate['id'] === port.ids.row(index));
      if (row.deleted || !row.persisted) {
        if (row.deleted) expect.that(entry === undefined, () => broke('list.rows', `session.list still lists deleted r${index}`));
        return;
      }
      if (!expect.that(entry !== undefined, () => broke('list.rows', `session.list leaves out stored r${index} (${row.turns} turn(s))`))) return;
      const count = entry?.['message_count'] ?? null;
      expect.that(count === m.messagesOf(row), () => broke('list.rows', `session.list shows r${index} with message_count ${JSON.stringify(count)}, not ${m.messagesOf(row)} (${row.turns} turn(s))`));
      const title = row.title ?? (row.untitled ? '' : null);
      if (title !== null) expect.that(entry?.['title'] === title, () => broke('list.rows', `session.list shows r${index} titled ${JSON.stringify(entry?.['title'])}, not ${JSON.stringify(title)}`));
      rows.push({ row: index, message_count: count, ...(title !== null ? { title: entry?.['title'] ?? null } : {}) });
    });
    return observed(port, exchange, { rows }, expect.violations);
  },
  update: () => undefined,
};

const titleSet: Command = {
  name: 'titleSet',
  args: fc.record({ s: pick, title: word }),
  check: (state, args) => sessionOf(state, attached, args) !== undefined,
  async run(state, port, args) {
    const session = sessionOf(state, attached, args) as number;
    const on = boundClient(state, session);
    const title = text(args, 'title');
    const since = port.eventMark(on);
    const exchange = await port.call(on, 'session.title', { session_id: port.ids.session(session), title });
    const expect = new Expect();
    expect.that(resultOf(exchange)?.['title'] === title, () => broke('title.kept', `session.title set ${JSON.stringify(title)} on s${session} answered ${shown(exchange)}`));
    await settleInfo(port, on, port.ids.session(session), since);
    return observed(port, exchange, { title: resultOf(exchange)?.['title'] ?? null }, expect.violations);
  },
  update: (state, args) => m.titled(state, sessionOf(state, attached, args) as number, text(args, 'title')),
};

const titleRead: Command = {
  name: 'titleRead',
  args: fc.record({ s: pick }),
  check: (state, args) => sessionOf(state, live, args) !== undefined,
  async run(state, port, args) {
    const session = sessionOf(state, live, args) as number;
    const row = rowOfSession(state, session);
    const exchange = await port.call('a', 'session.title', { session_id: port.ids.session(session) });
    const got = resultOf(exchange)?.['title'] ?? null;
    const known = row.title ?? (row.untitled ? '' : null);
    const expect = new Expect();
    if (known !== null) expect.that(got === known, () => broke('title.kept', `session.title read on s${session} answered ${shown(exchange)}, not ${JSON.stringify(known)}`));
    return observed(port, exchange, known !== null ? { title: got } : {}, expect.violations);
  },
  update: () => undefined,
};

const branch: Command = {
  name: 'branch',
  args: fc.record({ s: pick, name: word }, { requiredKeys: ['s'] }),
  weight: 2,
  check: (state, args) => sessionOf(state, attached, args) !== undefined && state.sessions.length < MAX_SESSIONS + 4,
  async run(state, port, args) {
    const session = sessionOf(state, attached, args) as number;
    const on = boundClient(state, session);
    const row = rowOfSession(state, session);
    const name = optionalText(args, 'name');
    const since = port.eventMark(on);
    const exchange = await port.call(on, 'session.branch', { session_id: port.ids.session(session), ...(name !== null ? { name } : {}) });
    const result = resultOf(exchange);
    const expect = new Expect();
    if (row.turns === 0) {
      expect.that(isError(exchange, NOTHING_TO_BRANCH), () => broke('branch.copy', `session.branch of s${session}, which has no turn, answered ${shown(exchange)}, not ${NOTHING_TO_BRANCH}`));
      return observed(port, exchange, {}, expect.violations);
    }
    expect.that(result !== undefined, () => broke('branch.copy', `session.branch of s${session} (${row.turns} turn(s)) answered ${shown(exchange)}`));
    register(port.ids.sessions, port, result?.['session_id'], expect, 'branch runtime session');
    register(port.ids.rows, port, result?.['stored_session_id'], expect, 'branch stored session');
    const count = result?.['message_count'] ?? null;
    const parentRow = state.sessions[session]?.row ?? -1;
    if (result) {
      expect.that(count === m.messagesOf(row) && lengthOf(result['messages']) === m.messagesOf(row), () => broke('branch.copy', `session.branch of s${session} (${row.turns} turn(s)) answered message_count ${JSON.stringify(count)} and ${lengthOf(result['messages'])} messages, not ${m.messagesOf(row)}`));
      expect.that(result['parent'] === port.ids.row(parentRow), () => broke('branch.copy', `session.branch of s${session} names parent ${port.ids.refOf(result['parent'])}, not r${parentRow}`));
      if (name !== null) expect.that(result['title'] === name, () => broke('branch.copy', `session.branch named ${JSON.stringify(name)} answered title ${JSON.stringify(result['title'])}`));
    }
    if (typeof result?.['session_id'] === 'string') await settleInfo(port, on, result['session_id'], since);
    return observed(port, exchange, { message_count: count, parent: port.ids.refOf(result?.['parent']) }, expect.violations);
  },
  update: (state, args) => {
    const session = sessionOf(state, attached, args) as number;
    m.branched(state, session, boundClient(state, session), optionalText(args, 'name'));
  },
};

/** history or usage of any session: live ones answer what the model predicts, closed ones 4001. */
function readout(name: string, method: string, judge: (row: m.ModelRow, result: JsonObject, session: number) => string | undefined, fields: (result: JsonObject | undefined) => JsonObject): Command {
  return {
    name,
    args: fc.record({ s: pick }),
    weight: 2,
    check: (state, args) => sessionOf(state, any, args) !== undefined,
    async run(state, port, args) {
      const session = sessionOf(state, any, args) as number;
      const exchange = await port.call('a', method, { session_id: port.ids.session(session) });
      const result = resultOf(exchange);
      const expect = new Expect();
      if (state.sessions[session]?.live) {
        const problem = result ? judge(rowOfSession(state, session), result, session) : `${method} of live s${session} answered ${shown(exchange)}`;
        expect.that(problem === undefined, () => problem as string);
      } else {
        expect.that(isError(exchange, SESSION_NOT_FOUND), () => broke('closed.gone', `${method} of closed s${session} answered ${shown(exchange)}, not ${SESSION_NOT_FOUND}`));
      }
      return observed(port, exchange, fields(result), expect.violations);
    },
    update: () => undefined,
  };
}

const history = readout(
  'history',
  'session.history',
  (row, result, session) =>
    result['count'] === m.messagesOf(row) && lengthOf(result['messages']) === m.messagesOf(row)
      ? undefined
      : broke('history.count', `session.history of s${session} (${row.turns} turn(s)) answered count ${JSON.stringify(result['count'])} and ${lengthOf(result['messages'])} messages, not ${m.messagesOf(row)}`),
  (result) => ({ count: result?.['count'] ?? null }),
);

const usage = readout(
  'usage',
  'session.usage',
  (row, result, session) => {
    const calls = result['calls'];
    return typeof calls === 'number' && calls >= row.turns ? undefined : broke('usage.counts', `session.usage of s${session} counts ${JSON.stringify(calls)} call(s) for ${row.turns} completed turn(s)`);
  },
  (result) => ({ calls: result?.['calls'] ?? null, total: result?.['total'] ?? null }),
);

const steerIdle: Command = {
  name: 'steerIdle',
  args: fc.record({ s: pick, text: word }),
  check: (state, args) => sessionOf(state, live, args) !== undefined,
  async run(state, port, args) {
    const session = sessionOf(state, live, args) as number;
    const exchange = await port.call('a', 'session.steer', { session_id: port.ids.session(session), text: text(args, 'text') });
    const status = resultOf(exchange)?.['status'] ?? null;
    const expect = new Expect();
    expect.that(status === 'rejected', () => broke('steer.target', `session.steer on idle s${session} answered ${shown(exchange)}, not status rejected`));
    return observed(port, exchange, { status }, expect.violations);
  },
  update: () => undefined,
};

/** A `/slow` turn (a reference directive) and a steer sent while it runs. */
const steerBusy: Command = {
  name: 'steerBusy',
  args: fc.record({ s: pick, text: word }),
  referenceOnly: true,
  check: (state, args) => sessionOf(state, attached, args) !== undefined,
  async run(state, port, args) {
    const session = sessionOf(state, attached, args) as number;
    const on = boundClient(state, session);
    const id = port.ids.session(session);
    const since = port.eventMark(on);
    const submitted = await port.call(on, 'prompt.submit', { session_id: id, text: `/slow 120 ${text(args, 'text')}` });
    const exchange = await port.call(on, 'session.steer', { session_id: id, text: `also ${text(args, 'text')}` });
    const status = resultOf(exchange)?.['status'] ?? null;
    const expect = new Expect();
    expect.that(resultOf(submitted)?.['status'] === 'streaming', () => broke('turn.runs-once', `prompt.submit of a /slow turn on s${session} answered ${shown(submitted)}`));
    expect.that(status === 'queued', () => broke('steer.target', `session.steer on s${session} while its turn runs answered ${shown(exchange)}, not status queued`));
    const done = await completions(port, on, id, since, 1);
    expect.that(done.length === 1, () => broke('turn.runs-once', `s${session}'s steered turn sent ${done.length} message.complete, not 1`));
    return observed(port, exchange, { status, completions: done.length }, expect.violations);
  },
  update: (state, args) => m.turnsDone(state, sessionOf(state, attached, args) as number, 1),
  describe: (args) => `steerBusy ${JSON.stringify(args)} (prompt.submit "/slow 120 …", then session.steer while it runs)`,
};

const since: Command = {
  name: 'eventsSince',
  args: fc.record({ s: pick, back: fc.oneof({ arbitrary: fc.constant(0), weight: 2 }, { arbitrary: fc.nat({ max: 3 }), weight: 1 }) }),
  weight: 2,
  check: (state, args) => sessionOf(state, live, args) !== undefined,
  async run(state, port, args) {
    const session = sessionOf(state, live, args) as number;
    const id = port.ids.session(session);
    const seen = port.ids.seqSeen.get(id) ?? 0;
    const lastSeen = Math.max(0, seen - num(args, 'back'));
    const exchange = await port.call('a', 'session.events.since', { session_id: id, last_seen: lastSeen });
    const result = resultOf(exchange);
    const expect = new Expect();
    const events = Array.isArray(result?.['events']) ? (result['events'] as JsonValue[]).filter(isJsonObject) : [];
    const latest = result?.['latest_seq'];
    let consistent = false;
    if (expect.that(result !== undefined && typeof latest === 'number', () => broke('since.replay', `session.events.since of s${session} answered ${shown(exchange)}`))) {
      const before = expect.violations.length;
      const foreign = events.filter((event) => event['session_id'] !== id);
      expect.that(foreign.length === 0, () => broke('since.replay', `session.events.since of s${session} returned ${foreign.length} event(s) of ${[...new Set(foreign.map((event) => port.ids.refOf(event['session_id'])))].join(', ')}`));
      expect.that(result?.['count'] === events.length, () => broke('since.replay', `session.events.since of s${session} reports count ${JSON.stringify(result?.['count'])} for ${events.length} event(s)`));
      // truncated: true says "refetch, do not trust the replay" (a ring evicted by other sessions): only the above holds then.
      if (result?.['truncated'] !== true) {
        const seqs = events.map((event) => event['seq']);
        const expected = Array.from({ length: Math.max(0, (latest as number) - lastSeen) }, (_, i) => lastSeen + 1 + i);
        expect.that(JSON.stringify(seqs) === JSON.stringify(expected), () => broke('since.replay', `session.events.since(s${session}, last_seen ${lastSeen}) returned seqs ${JSON.stringify(seqs)} with latest_seq ${latest}, not ${JSON.stringify(expected)}`));
        expect.that((latest as number) >= seen, () => broke('since.replay', `session.events.since of s${session} reports latest_seq ${latest}, below seq ${seen} already received live`));
      }
      consistent = expect.violations.length === before;
    }
    // Whether the replay is exact or honestly truncated: what the lockstep run compares (ring eviction depends on the other sessions a gateway holds).
    return observed(port, exchange, { consistent }, expect.violations);
  },
  update: () => undefined,
};

/** A `/request approval` turn (a reference directive): the client answers the server request and the turn completes with it. */
const answerRequest: Command = {
  name: 'answerRequest',
  args: fc.record({ s: pick }),
  referenceOnly: true,
  check: (state, args) => sessionOf(state, attached, args) !== undefined,
  async run(state, port, args) {
    const session = sessionOf(state, attached, args) as number;
    const on = boundClient(state, session);
    const id = port.ids.session(session);
    const since = port.eventMark(on);
    const exchange = await port.call(on, 'prompt.submit', { session_id: id, text: '/request approval' });
    const done = await completions(port, on, id, since, 1);
    const reply = done[0]?.['text'];
    const expect = new Expect();
    expect.that(typeof reply === 'string' && reply.startsWith('approval answered'), () => broke('request.answered', `the /request approval turn of s${session} completed with ${JSON.stringify(reply ?? null)}, not with the client's answer`));
    return observed(port, exchange, { completions: done.length, answered: typeof reply === 'string' && reply.startsWith('approval answered') }, expect.violations);
  },
  update: (state, args) => m.turnsDone(state, sessionOf(state, attached, args) as number, 1),
};

/** Every command of the Hermes session model (`answerRequest` only where the contract declares the approval request). */
export const HERMES_COMMANDS: readonly Command[] = [
  create,
  submit,
  submitPair,
  close,
  closeAgain,
  resume,
  activate,
  detachB,
  reconnect,
  remove,
  list,
  titleSet,
  titleRead,
  branch,
  history,
  usage,
  steerIdle,
  steerBusy,
  since,
];

export const ANSWER_REQUEST_COMMAND: Command = answerRequest;

export type { Observation };
