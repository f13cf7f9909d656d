import * as fc from 'fast-check';
import type { StatefulCommand } from '../../../src/stateful/engine/statefulTypes.js';
import * as m from './hermesModel.js';
import type { HermesState } from './hermesModel.js';
import { Expect, lengthOf, observed, resultOf, sweepSeq } from './hermesObserve.js';
import { broke } from './hermesRules.js';
import { any, client, closedOnes, DELETE_ACTIVE, isError, live, MAX_SESSIONS, num, optionalText, pick, register, rowOfSession, SESSION_NOT_FOUND, sessionOf, settleInfo, shown, STORED_NOT_FOUND, word } from './commandKit.js';
import type { HermesPort } from './hermesPort.js';

type Command = StatefulCommand<HermesState, HermesPort>;

export const create: Command = {
  name: 'create',
  calls: ['session.create'],
  args: fc.record({ title: word }, { requiredKeys: [] }),
  // Most commands need a session: with some thirty commands drawn, a lighter create leaves sequences mostly empty.
  weight: 6,
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

export const close: Command = {
  name: 'close',
  calls: ['session.close'],
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

export const closeAgain: Command = {
  name: 'closeAgain',
  calls: ['session.close'],
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

export const resume: Command = {
  name: 'resume',
  calls: ['session.resume'],
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
    // A closed session's row is read from the store, which may not hold an undo yet (ModelRow.storedExact).
    const exact = liveSession !== undefined || row.storedExact;
    expect.that(result === undefined || !exact || (count === m.messagesOf(row) && messages === m.messagesOf(row)), () => broke('resume.same', `session.resume of r${rowIndex} (${row.turns} turn(s) stored) answered message_count ${JSON.stringify(count)} and ${messages} messages, not ${m.messagesOf(row)}`));
    if (liveSession === undefined && typeof runtime === 'string') await settleInfo(port, 'a', runtime, since);
    return observed(port, exchange, { ...(exact ? { message_count: count, messages } : {}), reused: liveSession !== undefined ? runtime === port.ids.session(liveSession) : null }, expect.violations);
  },
  update: (state, args) => m.resumed(state, m.choose(resumable(state), num(args, 'r')) as number, 'a'),
};

export const activate: Command = {
  name: 'activate',
  calls: ['session.activate'],
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

export const detachB: Command = {
  name: 'detachB',
  args: fc.constant({}),
  check: (state) => state.bOpen,
  async run(_state, port) {
    await port.closeClient('b');
    return observed(port, undefined, {}, []);
  },
  update: (state) => m.dropped(state, 'b'),
};

export const reconnect: Command = {
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

export const remove: Command = {
  name: 'delete',
  calls: ['session.delete'],
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
