import { type BranchingDeps, branchingHandlers } from './branching.js';
import { type ConnectionDeps, connectionHandlers } from './connection.js';
import type { HandlerTable } from './handlerTypes.js';
import { type HookHandlerDeps, hookHandlers } from './hooks.js';
import { type ListingDeps, listingHandlers } from './listing.js';
import { type OneshotDeps, oneshotHandlers } from './oneshot.js';
import { type ReplayDeps, replayHandlers } from './replay.js';
import { type RowMutationDeps, rowMutationHandlers } from './rowMutation.js';
import { type SessionCreateDeps, sessionCreateHandlers } from './sessionCreate.js';
import { type SessionEndDeps, sessionEndHandlers } from './sessionEnd.js';
import { type SessionReadoutDeps, sessionReadoutHandlers } from './sessionReadouts.js';
import { type SessionResumeDeps, sessionResumeHandlers } from './sessionResume.js';
import { type SpawnTreeDeps, spawnTreeHandlers } from './spawnTree.js';
import { type TurnDeps, turnHandlers } from './turns.js';

/** What the composition root hands over; each area takes only its own part of it. */
export type StatefulHandlerDeps = SessionCreateDeps &
  SessionResumeDeps &
  SessionEndDeps &
  ListingDeps &
  RowMutationDeps &
  BranchingDeps &
  TurnDeps &
  SessionReadoutDeps &
  ReplayDeps &
  SpawnTreeDeps &
  OneshotDeps &
  HookHandlerDeps &
  ConnectionDeps;

/** Every Hermes method the reference gateway implements (and the session-hooks extension's); a loaded method outside this table gets the schema responder. */
export function statefulHandlers(deps: StatefulHandlerDeps): HandlerTable {
  return {
    ...sessionCreateHandlers(deps),
    ...sessionResumeHandlers(deps),
    ...sessionEndHandlers(deps),
    ...listingHandlers(deps),
    ...rowMutationHandlers(deps),
    ...branchingHandlers(deps),
    ...turnHandlers(deps),
    ...sessionReadoutHandlers(deps),
    ...replayHandlers(deps),
    ...spawnTreeHandlers(deps),
    ...oneshotHandlers(deps),
    ...hookHandlers(deps),
    ...connectionHandlers(deps),
  };
}
