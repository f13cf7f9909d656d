import * as fc from 'fast-check';
import { outcomeClass, resultOf, type RpcClient, type StatefulCommand, type StatefulModel } from 'contract-gate/stateful';

/** What the notes contract promises across calls: the count is the number of notes added since the last clear, and ids are never reused. */
export interface NotesState {
  stored: number;
}

/** The system one sequence runs on: one connection and the ids it has been handed. */
export interface NotesSystem {
  readonly client: RpcClient;
  readonly ids: Set<string>;
}

type Command = StatefulCommand<NotesState, NotesSystem>;

const add: Command = {
  name: 'add',
  args: fc.record({ text: fc.stringMatching(/^[a-z]{1,10}$/) }),
  weight: 3,
  check: () => true,
  async run(_state, system, args) {
    const exchange = await system.client.call('notes.add', { text: args['text'] });
    const id = resultOf(exchange)?.['id'];
    const violations = typeof id !== 'string' ? [`notes.add answered ${exchange.responseText}`] : system.ids.has(id) ? [`notes.add handed out id ${id} a second time`] : [];
    if (typeof id === 'string') system.ids.add(id);
    return { outcome: outcomeClass(exchange), fields: {}, violations, answer: exchange.responseText ?? '' };
  },
  update: (state) => {
    state.stored += 1;
  },
};

const count: Command = {
  name: 'count',
  args: fc.constant({}),
  check: () => true,
  async run(state, system) {
    const exchange = await system.client.call('notes.count', {});
    const got = resultOf(exchange)?.['count'];
    return { outcome: outcomeClass(exchange), fields: { count: got ?? null }, violations: got === state.stored ? [] : [`notes.count answered ${JSON.stringify(got)}, not ${state.stored}`], answer: exchange.responseText ?? '' };
  },
  update: () => undefined,
};

const clear: Command = {
  name: 'clear',
  args: fc.constant({}),
  check: (state) => state.stored > 0,
  async run(state, system) {
    const exchange = await system.client.call('notes.clear', {});
    const got = resultOf(exchange)?.['count'];
    return { outcome: outcomeClass(exchange), fields: { count: got ?? null }, violations: got === state.stored ? [] : [`notes.clear removed ${JSON.stringify(got)}, not ${state.stored}`], answer: exchange.responseText ?? '' };
  },
  update: (state) => {
    state.stored = 0;
  },
};

export const notesModel: StatefulModel<NotesState, NotesSystem> = {
  name: 'notes',
  initial: () => ({ stored: 0 }),
  commands: [add, count, clear],
  rules: [
    { id: 'ids.fresh', rule: 'notes.add never hands out an id twice.' },
    { id: 'count.added', rule: 'notes.count is the number of notes added since the last notes.clear, which answers that number.' },
  ],
};
