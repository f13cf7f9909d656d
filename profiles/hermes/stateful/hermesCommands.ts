import type { Observation, StatefulCommand } from '../../../src/stateful/engine/statefulTypes.js';
import type { HermesState } from './hermesModel.js';
import type { HermesPort } from './hermesPort.js';
import { branch, branchStored, branchWhole } from './branchCommands.js';
import { interruptBusy, interruptIdle, redirectIdle, reset, undo } from './controlCommands.js';
import { activate, close, closeAgain, create, detachB, reconnect, remove, resume } from './lifecycleCommands.js';
import { activeList, list, mostRecent } from './listingCommands.js';
import { contextBreakdown, history, resize, status, titleRead, titleSet, usage } from './readoutCommands.js';
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
  activeList,
  mostRecent,
  titleSet,
  titleRead,
  branch,
  branchWhole,
  branchStored,
  history,
  usage,
  status,
  contextBreakdown,
  resize,
  undo,
  reset,
  interruptIdle,
  interruptBusy,
  redirectIdle,
  steerIdle,
  steerBusy,
  since,
];

export const ANSWER_REQUEST_COMMAND: Command = answerRequest;

export type { Observation };
