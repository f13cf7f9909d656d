import { branchingHandlers } from './branching.js';
import type { GatewayServices, HandlerTable } from './handlerTypes.js';
import { hookHandlers } from './hooks.js';
import { listingHandlers } from './listing.js';
import { oneshotHandlers } from './oneshot.js';
import { replayHandlers } from './replay.js';
import { rowMutationHandlers } from './rowMutation.js';
import { sessionCreateHandlers } from './sessionCreate.js';
import { sessionEndHandlers } from './sessionEnd.js';
import { sessionReadoutHandlers } from './sessionReadouts.js';
import { sessionResumeHandlers } from './sessionResume.js';
import { spawnTreeHandlers } from './spawnTree.js';
import { turnHandlers } from './turns.js';

/** Every Hermes method the reference gateway implements (and the session-hooks extension's); a loaded method outside this table gets the schema responder. */
export function hermesHandlers(services: GatewayServices): HandlerTable {
  return {
    ...sessionCreateHandlers(services),
    ...sessionResumeHandlers(services),
    ...sessionEndHandlers(services),
    ...listingHandlers(services),
    ...rowMutationHandlers(services),
    ...branchingHandlers(services),
    ...turnHandlers(services),
    ...sessionReadoutHandlers(services),
    ...replayHandlers(services),
    ...spawnTreeHandlers(services),
    ...oneshotHandlers(services),
    ...hookHandlers(services),
  };
}
