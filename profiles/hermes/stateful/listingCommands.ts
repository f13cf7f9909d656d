import * as fc from 'fast-check';
import { isJsonObject, type JsonObject } from '../../../core/index.js';
import type { StatefulCommand } from '../../../src/stateful/engine/statefulTypes.js';
import * as m from './hermesModel.js';
import type { HermesState } from './hermesModel.js';
import { Expect, observed, resultOf } from './hermesObserve.js';
import { broke } from './hermesRules.js';
import { shown } from './commandKit.js';
import type { HermesPort } from './hermesPort.js';

type Command = StatefulCommand<HermesState, HermesPort>;

/** The rows a listing may show: persisted and not deleted. */
const listable = (state: Readonly<HermesState>): number[] => m.rowsWhere(state, (row) => row.persisted && !row.deleted);

export const list: Command = {
  name: 'list',
  args: fc.constant({}),
  weight: 2,
  calls: ['session.list'],
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
      expect.that(count === m.messagesOf(row) || !row.storedExact, () => broke('list.rows', `session.list shows r${index} with message_count ${JSON.stringify(count)}, not ${m.messagesOf(row)} (${row.turns} turn(s))`));
      const title = row.title ?? (row.untitled ? '' : null);
      if (title !== null) expect.that(entry?.['title'] === title, () => broke('list.rows', `session.list shows r${index} titled ${JSON.stringify(entry?.['title'])}, not ${JSON.stringify(title)}`));
      rows.push({ row: index, ...(row.storedExact ? { message_count: count } : {}), ...(title !== null ? { title: entry?.['title'] ?? null } : {}) });
    });
    return observed(port, exchange, { rows }, expect.violations);
  },
  update: () => undefined,
};

/** session.active_list: every live session of the model with its transcript's count, no closed one (another client's sessions may show too). */
export const activeList: Command = {
  name: 'activeList',
  args: fc.constant({}),
  calls: ['session.active_list'],
  check: () => true,
  async run(state, port) {
    const exchange = await port.call('a', 'session.active_list', {});
    const listed = resultOf(exchange)?.['sessions'];
    const entries = Array.isArray(listed) ? listed.filter(isJsonObject) : [];
    const expect = new Expect();
    expect.that(Array.isArray(listed), () => broke('active.live', `session.active_list answered ${shown(exchange)}`));
    const shownLive: JsonObject[] = [];
    state.sessions.forEach((session, index) => {
      const entry = entries.find((candidate) => candidate['id'] === port.ids.session(index));
      if (!session.live) {
        expect.that(entry === undefined, () => broke('active.live', `session.active_list still shows closed s${index}`));
        return;
      }
      if (!expect.that(entry !== undefined, () => broke('active.live', `session.active_list leaves out live s${index}`))) return;
      const row = state.rows[session.row] as m.ModelRow;
      const count = entry?.['message_count'] ?? null;
      expect.that(count === m.messagesOf(row), () => broke('active.live', `session.active_list shows s${index} with message_count ${JSON.stringify(count)}, not ${m.messagesOf(row)} (${row.turns} turn(s))`));
      shownLive.push({ session: index, message_count: count });
    });
    const closedShown = state.sessions.filter((session, index) => !session.live && entries.some((entry) => entry['id'] === port.ids.session(index))).length;
    return observed(port, exchange, { live: shownLive, closedShown }, expect.violations);
  },
  update: () => undefined,
};

/** session.most_recent: a listable row, or null when there is none at all. */
export const mostRecent: Command = {
  name: 'mostRecent',
  args: fc.constant({}),
  calls: ['session.most_recent'],
  check: () => true,
  async run(state, port) {
    const exchange = await port.call('a', 'session.most_recent', {});
    const result = resultOf(exchange);
    const named = result?.['session_id'];
    const expect = new Expect();
    const rows = listable(state);
    const ref = port.ids.refOf(named);
    if (expect.that(result !== undefined && (named === null || typeof named === 'string'), () => broke('recent.listable', `session.most_recent answered ${shown(exchange)}`))) {
      if (named === null) expect.that(rows.length === 0, () => broke('recent.listable', `session.most_recent answered session_id null while ${rows.map((row) => `r${row}`).join(', ')} are listable`));
      else if (ref.startsWith('r')) expect.that(rows.includes(Number(ref.slice(1))), () => broke('recent.listable', `session.most_recent names ${ref}, which is ${state.rows[Number(ref.slice(1))]?.deleted ? 'deleted' : 'not persisted'}`));
    }
    // Which row is newest depends on clocks (and on other clients of a shared gateway): lockstep compares only that the answer was consistent.
    const consistent = named === null ? rows.length === 0 : !ref.startsWith('r') || rows.includes(Number(ref.slice(1)));
    return observed(port, exchange, { consistent }, expect.violations);
  },
  update: () => undefined,
};
