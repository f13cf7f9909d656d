import * as fc from 'fast-check';
import { isJsonObject, type JsonValue } from '../../../core/index.js';
import type { StatefulCommand } from '../../../src/stateful/engine/statefulTypes.js';
import * as m from './hermesModel.js';
import type { HermesState } from './hermesModel.js';
import { Expect, observed, outcomeClass, resultOf } from './hermesObserve.js';
import { broke } from './hermesRules.js';
import { attached, boundClient, completions, live, num, pick, sessionOf, shown, text, word } from './commandKit.js';
import type { HermesPort } from './hermesPort.js';

type Command = StatefulCommand<HermesState, HermesPort>;

export const submit: Command = {
  name: 'submit',
  calls: ['prompt.submit'],
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

export const submitPair: Command = {
  name: 'submitPair',
  calls: ['prompt.submit'],
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

export const steerIdle: Command = {
  name: 'steerIdle',
  calls: ['session.steer'],
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
export const steerBusy: Command = {
  name: 'steerBusy',
  calls: ['prompt.submit', 'session.steer'],
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

export const since: Command = {
  name: 'eventsSince',
  calls: ['session.events.since'],
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
export const answerRequest: Command = {
  name: 'answerRequest',
  calls: ['prompt.submit'],
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
