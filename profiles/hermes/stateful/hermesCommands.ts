import type { Observation, StatefulCommand } from '../../../src/stateful/engine/statefulTypes.js';
import type { HermesState } from './hermesModel.js';
import type { HermesPort } from './hermesPort.js';
import { activate, branch, close, closeAgain, create, detachB, reconnect, remove, resume } from './lifecycleCommands.js';
import { history, list, titleRead, titleSet, usage } from './readoutCommands.js';
import { answerRequest, since, steerBusy, steerIdle, submit, submitPair } from './turnCommands.js';

type Command = StatefulCommand<HermesState, HermesPort>;

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
