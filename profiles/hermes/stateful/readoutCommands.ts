import * as fc from 'fast-check';
import type { JsonObject } from '../../../core/index.js';
import type { StatefulCommand } from '../../../src/stateful/engine/statefulTypes.js';
import * as m from './hermesModel.js';
import type { HermesState } from './hermesModel.js';
import { Expect, lengthOf, observed, resultOf } from './hermesObserve.js';
import { broke } from './hermesRules.js';
import { any, attached, boundClient, isError, live, num, pick, rowOfSession, SESSION_NOT_FOUND, sessionOf, settleInfo, shown, text, word } from './commandKit.js';
import type { HermesPort } from './hermesPort.js';

type Command = StatefulCommand<HermesState, HermesPort>;

export const titleSet: Command = {
  name: 'titleSet',
  args: fc.record({ s: pick, title: word }),
  calls: ['session.title'],
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
  calls: ['session.title'],
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

/** A read of any session (history, usage, status, …): live ones answer what the model predicts, closed ones 4001. */
function readout(name: string, method: string, judge: (row: m.ModelRow, result: JsonObject, session: number) => string | undefined, fields: (result: JsonObject | undefined) => JsonObject, weight = 2): Command {
  return {
    name,
    args: fc.record({ s: pick }),
    weight,
    calls: [method],
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

export const status: Command = readout(
  'status',
  'session.status',
  (_row, result, session) => (typeof result['output'] === 'string' && result['output'] !== '' ? undefined : broke('readout.live', `session.status of live s${session} answered output ${JSON.stringify(result['output'])}`)),
  () => ({}),
  1,
);

export const contextBreakdown: Command = readout(
  'contextBreakdown',
  'session.context_breakdown',
  (_row, result, session) => (typeof result['context_used'] === 'number' ? undefined : broke('readout.live', `session.context_breakdown of live s${session} answered no context_used`)),
  () => ({}),
  1,
);

/** terminal.resize of any session: a live one echoes the columns asked for, a closed one answers 4001. */
export const resize: Command = {
  name: 'resize',
  args: fc.record({ s: pick, cols: fc.integer({ min: 20, max: 240 }) }),
  calls: ['terminal.resize'],
  check: (state, args) => sessionOf(state, any, args) !== undefined,
  async run(state, port, args) {
    const session = sessionOf(state, any, args) as number;
    const cols = num(args, 'cols');
    const exchange = await port.call('a', 'terminal.resize', { session_id: port.ids.session(session), cols });
    const answered = resultOf(exchange)?.['cols'] ?? null;
    const expect = new Expect();
    if (state.sessions[session]?.live) expect.that(answered === cols, () => broke('readout.live', `terminal.resize of live s${session} to ${cols} columns answered ${shown(exchange)}`));
    else expect.that(isError(exchange, SESSION_NOT_FOUND), () => broke('closed.gone', `terminal.resize of closed s${session} answered ${shown(exchange)}, not ${SESSION_NOT_FOUND}`));
    return observed(port, exchange, { cols: answered }, expect.violations);
  },
  update: () => undefined,
};
