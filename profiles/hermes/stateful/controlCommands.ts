import * as fc from 'fast-check';
import type { StatefulCommand } from '../../../src/stateful/engine/statefulTypes.js';
import * as m from './hermesModel.js';
import type { HermesState } from './hermesModel.js';
import { Expect, observed, resultOf } from './hermesObserve.js';
import { broke } from './hermesRules.js';
import { attached, boundClient, completions, historyCount, isError, live, pick, rowOfSession, sessionOf, shown, text, word } from './commandKit.js';
import type { HermesPort } from './hermesPort.js';

type Command = StatefulCommand<HermesState, HermesPort>;

/** Upstream answers a redirect with 4010 when its agent cannot redirect a running turn at all. */
const REDIRECT_UNSUPPORTED = 4010;

/** session.undo of an idle live session: the last turn (its user and assistant rows) leaves the transcript. */
export const undo: Command = {
  name: 'undo',
  args: fc.record({ s: pick }),
  calls: ['session.undo', 'session.history'],
  check: (state, args) => sessionOf(state, live, args) !== undefined,
  async run(state, port, args) {
    const session = sessionOf(state, live, args) as number;
    const row = rowOfSession(state, session);
    const exchange = await port.call('a', 'session.undo', { session_id: port.ids.session(session) });
    const removed = resultOf(exchange)?.['removed'] ?? null;
    const expected = row.turns > 0 ? 2 : 0;
    const expect = new Expect();
    expect.that(removed === expected, () => broke('undo.last-turn', `session.undo of idle s${session} (${row.turns} turn(s)) answered ${shown(exchange)}, not removed: ${expected}`));
    const left = await historyCount(port, 'a', port.ids.session(session));
    const kept = m.messagesOf(row) - expected;
    expect.that(left === kept, () => broke('undo.last-turn', `session.history of s${session} right after its undo counts ${JSON.stringify(left)} messages, not ${kept}`));
    return observed(port, exchange, { removed, left }, expect.violations);
  },
  update: (state, args) => m.undone(state, sessionOf(state, live, args) as number),
};

/** session.interrupt of an idle live session: nothing to stop, nothing changes. */
export const interruptIdle: Command = {
  name: 'interruptIdle',
  args: fc.record({ s: pick }),
  calls: ['session.interrupt'],
  check: (state, args) => sessionOf(state, live, args) !== undefined,
  async run(state, port, args) {
    const session = sessionOf(state, live, args) as number;
    const exchange = await port.call('a', 'session.interrupt', { session_id: port.ids.session(session) });
    const result = resultOf(exchange);
    const expect = new Expect();
    // Upstream answers status "interrupted" whether a turn ran or not; the reference says "not_interrupted". Neither may claim a stopped turn.
    expect.that(result !== undefined && result['interrupted'] !== true, () => broke('interrupt.stops', `session.interrupt of idle s${session} answered ${shown(exchange)}: no turn was running`));
    return observed(port, exchange, { claimsStoppedTurn: result?.['interrupted'] === true }, expect.violations);
  },
  update: () => undefined,
};

/** A `/slow` turn (a reference directive) interrupted while it runs: it ends as interrupted and adds no turn. */
export const interruptBusy: Command = {
  name: 'interruptBusy',
  args: fc.record({ s: pick, text: word }),
  referenceOnly: true,
  calls: ['prompt.submit', 'session.interrupt'],
  check: (state, args) => sessionOf(state, attached, args) !== undefined,
  async run(state, port, args) {
    const session = sessionOf(state, attached, args) as number;
    const on = boundClient(state, session);
    const id = port.ids.session(session);
    const since = port.eventMark(on);
    const submitted = await port.call(on, 'prompt.submit', { session_id: id, text: `/slow 120 ${text(args, 'text')}` });
    const exchange = await port.call(on, 'session.interrupt', { session_id: id });
    const result = resultOf(exchange);
    const expect = new Expect();
    expect.that(resultOf(submitted)?.['status'] === 'streaming', () => broke('turn.runs-once', `prompt.submit of a /slow turn on s${session} answered ${shown(submitted)}`));
    expect.that(result?.['status'] === 'interrupted', () => broke('interrupt.stops', `session.interrupt of s${session} while its turn runs answered ${shown(exchange)}, not status interrupted`));
    const done = await completions(port, on, id, since, 1);
    const status = done[0]?.['status'] ?? null;
    expect.that(done.length === 1 && status === 'interrupted', () => broke('interrupt.stops', `s${session}'s interrupted turn ended with ${done.length} message.complete (status ${JSON.stringify(status)}), not one with status interrupted`));
    return observed(port, exchange, { status: result?.['status'] ?? null, ended: status }, expect.violations);
  },
  update: (state, args) => m.prompted(state, sessionOf(state, attached, args) as number),
  describe: (args) => `interruptBusy ${JSON.stringify(args)} (prompt.submit "/slow 120 …", then session.interrupt while it runs)`,
};

/** session.redirect of an idle live session: rejected (the client sends it as a prompt instead); no turn starts. */
export const redirectIdle: Command = {
  name: 'redirectIdle',
  args: fc.record({ s: pick, text: word }),
  calls: ['session.redirect', 'session.history'],
  check: (state, args) => sessionOf(state, live, args) !== undefined,
  async run(state, port, args) {
    const session = sessionOf(state, live, args) as number;
    const exchange = await port.call('a', 'session.redirect', { session_id: port.ids.session(session), text: text(args, 'text') });
    const status = resultOf(exchange)?.['status'] ?? null;
    const expect = new Expect();
    expect.that(status === 'rejected' || isError(exchange, REDIRECT_UNSUPPORTED), () => broke('redirect.idle', `session.redirect of idle s${session} answered ${shown(exchange)}, not status rejected (or ${REDIRECT_UNSUPPORTED})`));
    // A turn the redirect started by mistake may still run here; the reads of later steps see it when it completes.
    const count = await historyCount(port, 'a', port.ids.session(session));
    const row = rowOfSession(state, session);
    expect.that(count === m.messagesOf(row), () => broke('redirect.idle', `session.history of s${session} right after a rejected redirect counts ${JSON.stringify(count)} messages, not ${m.messagesOf(row)}`));
    return observed(port, exchange, { rejected: status === 'rejected' || isError(exchange, REDIRECT_UNSUPPORTED), count }, expect.violations);
  },
  update: () => undefined,
};

/** session.reset (the session-hooks extension) of an idle live session: the transcript is emptied, the session stays live. */
export const reset: Command = {
  name: 'reset',
  args: fc.record({ s: pick }),
  calls: ['session.reset', 'session.history'],
  check: (state, args) => sessionOf(state, live, args) !== undefined,
  async run(state, port, args) {
    const session = sessionOf(state, live, args) as number;
    const exchange = await port.call('a', 'session.reset', { session_id: port.ids.session(session) });
    const done = resultOf(exchange)?.['reset'] ?? null;
    const expect = new Expect();
    expect.that(done === true, () => broke('reset.empties', `session.reset of idle s${session} answered ${shown(exchange)}, not reset: true`));
    const left = await historyCount(port, 'a', port.ids.session(session));
    expect.that(left === 0, () => broke('reset.empties', `session.history of s${session} right after its reset counts ${JSON.stringify(left)} messages, not 0`));
    return observed(port, exchange, { reset: done, left }, expect.violations);
  },
  update: (state, args) => m.emptied(state, sessionOf(state, live, args) as number),
};
