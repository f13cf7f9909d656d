import * as fc from 'fast-check';
import { isJsonObject, type JsonObject } from '../../../core/index.js';
import type { StatefulCommand } from '../../../src/stateful/engine/statefulTypes.js';
import * as m from './hermesModel.js';
import type { HermesState } from './hermesModel.js';
import { Expect, lengthOf, observed, resultOf } from './hermesObserve.js';
import { broke } from './hermesRules.js';
import { any, attached, boundClient, isError, live, pick, rowOfSession, SESSION_NOT_FOUND, sessionOf, settleInfo, shown, text, word } from './commandKit.js';
import type { HermesPort } from './hermesPort.js';

type Command = StatefulCommand<HermesState, HermesPort>;

export const list: Command = {
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

export const titleSet: Command = {
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

export const titleRead: Command = {
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

export const history: Command = readout(
  'history',
  'session.history',
  (row, result, session) =>
    result['count'] === m.messagesOf(row) && lengthOf(result['messages']) === m.messagesOf(row)
      ? undefined
      : broke('history.count', `session.history of s${session} (${row.turns} turn(s)) answered count ${JSON.stringify(result['count'])} and ${lengthOf(result['messages'])} messages, not ${m.messagesOf(row)}`),
  (result) => ({ count: result?.['count'] ?? null }),
);

export const usage: Command = readout(
  'usage',
  'session.usage',
  (row, result, session) => {
    const calls = result['calls'];
    return typeof calls === 'number' && calls >= row.turns ? undefined : broke('usage.counts', `session.usage of s${session} counts ${JSON.stringify(calls)} call(s) for ${row.turns} completed turn(s)`);
  },
  (result) => ({ calls: result?.['calls'] ?? null, total: result?.['total'] ?? null }),
);
