import * as fc from 'fast-check';
import type { JsonObject } from '../../../core/index.js';
import type { StatefulCommand } from '../../../src/stateful/engine/statefulTypes.js';
import * as m from './hermesModel.js';
import type { HermesState } from './hermesModel.js';
import { Expect, lengthOf, observed, resultOf } from './hermesObserve.js';
import { broke } from './hermesRules.js';
import { attached, boundClient, isError, MAX_SESSIONS, NOTHING_TO_BRANCH, num, optionalText, pick, register, rowOfSession, sessionOf, settleInfo, shown, STORED_NOT_FOUND, word } from './commandKit.js';
import type { HermesPort } from './hermesPort.js';

type Command = StatefulCommand<HermesState, HermesPort>;

const roomForChild = (state: Readonly<HermesState>): boolean => state.sessions.length < MAX_SESSIONS + 4;

/**
 * A branch of a live, attached session: `session.branch` echoes the copied transcript, `session.branch_whole` only
 * counts it (`messages_omitted: true`). Both open a live child named after the parent's stored id.
 */
function liveBranch(name: string, method: string, echoesMessages: boolean): Command {
  return {
    name,
    args: fc.record({ s: pick, name: word }, { requiredKeys: ['s'] }),
    weight: echoesMessages ? 2 : 1,
    calls: [method],
    check: (state, args) => sessionOf(state, attached, args) !== undefined && roomForChild(state),
    async run(state, port, args) {
      const session = sessionOf(state, attached, args) as number;
      const on = boundClient(state, session);
      const row = rowOfSession(state, session);
      const label = optionalText(args, 'name');
      const since = port.eventMark(on);
      const exchange = await port.call(on, method, { session_id: port.ids.session(session), ...(label !== null ? { name: label } : {}) });
      const result = resultOf(exchange);
      const expect = new Expect();
      if (row.turns === 0) {
        expect.that(isError(exchange, NOTHING_TO_BRANCH), () => broke('branch.copy', `${method} of s${session}, which has no turn, answered ${shown(exchange)}, not ${NOTHING_TO_BRANCH}`));
        return observed(port, exchange, {}, expect.violations);
      }
      expect.that(result !== undefined, () => broke('branch.copy', `${method} of s${session} (${row.turns} turn(s)) answered ${shown(exchange)}`));
      register(port.ids.sessions, port, result?.['session_id'], expect, 'branch runtime session');
      register(port.ids.rows, port, result?.['stored_session_id'], expect, 'branch stored session');
      const count = result?.['message_count'] ?? null;
      const parentRow = state.sessions[session]?.row ?? -1;
      if (result) {
        const echoed = echoesMessages ? lengthOf(result['messages']) === m.messagesOf(row) : result['messages_omitted'] === true;
        expect.that(count === m.messagesOf(row) && echoed, () => broke('branch.copy', `${method} of s${session} (${row.turns} turn(s)) answered message_count ${JSON.stringify(count)} and ${echoesMessages ? `${lengthOf(result['messages'])} messages` : `messages_omitted ${JSON.stringify(result['messages_omitted'])}`}, not ${m.messagesOf(row)}`));
        expect.that(result['parent'] === port.ids.row(parentRow), () => broke('branch.copy', `${method} of s${session} names parent ${port.ids.refOf(result['parent'])}, not r${parentRow}`));
        if (label !== null) expect.that(result['title'] === label, () => broke('branch.copy', `${method} named ${JSON.stringify(label)} answered title ${JSON.stringify(result['title'])}`));
      }
      if (typeof result?.['session_id'] === 'string') await settleInfo(port, on, result['session_id'], since);
      return observed(port, exchange, { message_count: count, parent: port.ids.refOf(result?.['parent']) }, expect.violations);
    },
    update: (state, args) => {
      const session = sessionOf(state, attached, args) as number;
      m.branched(state, session, boundClient(state, session), optionalText(args, 'name'));
    },
  };
}

export const branch: Command = liveBranch('branch', 'session.branch', true);
export const branchWhole: Command = liveBranch('branchWhole', 'session.branch_whole', false);

/** Rows whose stored transcript the model knows exactly: persisted ones, deleted ones and ones never persisted. */
const exactRows = (state: Readonly<HermesState>): number[] => m.rowsWhere(state, (row) => row.storedExact);

/** session.branch_stored of a stored row: a live child with the stored transcript; an empty row 4008, a missing one 4007. */
export const branchStored: Command = {
  name: 'branchStored',
  args: fc.record({ r: pick }),
  calls: ['session.branch_stored'],
  check: (state, args) => m.choose(exactRows(state), num(args, 'r')) !== undefined && roomForChild(state),
  async run(state, port, args) {
    const rowIndex = m.choose(exactRows(state), num(args, 'r')) as number;
    const row = state.rows[rowIndex] as m.ModelRow;
    const since = port.eventMark('a');
    const exchange = await port.call('a', 'session.branch_stored', { parent_session_id: port.ids.row(rowIndex) });
    const result = resultOf(exchange);
    const expect = new Expect();
    const fields: JsonObject = {};
    if (row.deleted || !row.persisted) {
      expect.that(isError(exchange, STORED_NOT_FOUND), () => broke('branch.copy', `session.branch_stored of r${rowIndex} (${row.deleted ? 'deleted' : 'never persisted'}) answered ${shown(exchange)}, not ${STORED_NOT_FOUND}`));
    } else if (row.turns === 0) {
      expect.that(isError(exchange, NOTHING_TO_BRANCH), () => broke('branch.copy', `session.branch_stored of r${rowIndex}, which has no turn, answered ${shown(exchange)}, not ${NOTHING_TO_BRANCH}`));
    } else {
      expect.that(result !== undefined, () => broke('branch.copy', `session.branch_stored of r${rowIndex} (${row.turns} turn(s)) answered ${shown(exchange)}`));
      register(port.ids.sessions, port, result?.['session_id'], expect, 'branch runtime session');
      register(port.ids.rows, port, result?.['stored_session_id'], expect, 'branch stored session');
      const count = result?.['message_count'] ?? null;
      if (result) expect.that(count === m.messagesOf(row), () => broke('branch.copy', `session.branch_stored of r${rowIndex} (${row.turns} turn(s) stored) answered message_count ${JSON.stringify(count)}, not ${m.messagesOf(row)}`));
      fields['message_count'] = count;
      if (typeof result?.['session_id'] === 'string') await settleInfo(port, 'a', result['session_id'], since);
    }
    return observed(port, exchange, fields, expect.violations);
  },
  update: (state, args) => m.branchedStored(state, m.choose(exactRows(state), num(args, 'r')) as number),
};
