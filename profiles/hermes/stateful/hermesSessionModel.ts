import type { StatefulModel } from '../../../src/stateful/engine/statefulTypes.js';
import { ANSWER_REQUEST_COMMAND, HERMES_COMMANDS } from './hermesCommands.js';
import { type HermesState, initialState } from './hermesModel.js';
import type { HermesPort } from './hermesPort.js';
import { HERMES_RULES } from './hermesRules.js';

/** The methods the Hermes model calls: a contract that lacks one of them cannot be run against it. */
export const HERMES_MODEL_METHODS = [
  'session.create',
  'prompt.submit',
  'session.close',
  'session.resume',
  'session.activate',
  'session.delete',
  'session.list',
  'session.title',
  'session.branch',
  'session.history',
  'session.usage',
  'session.steer',
  'session.events.since',
] as const;

export interface HermesModelOptions {
  /** Server requests the contract declares: the `/request approval` command is drawn only when `approval` is one. */
  readonly serverRequests: readonly string[];
  /** Methods the contract declares: a command calling one it lacks is left out (absent: every command). */
  readonly methods?: ReadonlySet<string>;
}

/** The Hermes session contract as a stateful model. */
export function hermesSessionModel(options: HermesModelOptions): StatefulModel<HermesState, HermesPort> {
  const all = options.serverRequests.includes('approval') ? [...HERMES_COMMANDS, ANSWER_REQUEST_COMMAND] : HERMES_COMMANDS;
  const { methods } = options;
  return {
    name: 'hermes-session',
    initial: initialState,
    commands: methods ? all.filter((command) => (command.calls ?? []).every((method) => methods.has(method))) : all,
    rules: HERMES_RULES,
  };
}
