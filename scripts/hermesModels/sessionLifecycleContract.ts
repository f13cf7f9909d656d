import { ProfileParams, SessionParams } from './commonModels.js';
import { liveSessionMethods } from './liveSessionMethods.js';
import type { ContractSpec } from './modelDsl.js';
import { promptSubmitMethod } from './promptSubmitMethod.js';
import { sessionEvents } from './sessionEvents.js';
import { sessionMethods } from './sessionMethods.js';

/** `current`: the contract with `SessionCreateParams.cwd_explicit` (#52589); `pre-cwd-explicit`: as it was before. */
export type SessionLifecycleEra = 'current' | 'pre-cwd-explicit';

/** The Hermes session lifecycle document: every method of sessions.py, `prompt.submit`, and their events. */
export function sessionLifecycleContract(era: SessionLifecycleEra): ContractSpec {
  const cwdExplicit = era === 'current';
  return {
    info: {
      title: 'Hermes TUI/Desktop gateway',
      version: cwdExplicit ? '2' : '1',
      description: 'Generated from tui_gateway/contracts by scripts/gen_gateway_contracts.py.',
    },
    methods: [...sessionMethods({ cwdExplicit }), ...liveSessionMethods, promptSubmitMethod],
    serverRequests: [],
    events: sessionEvents,
    // Every params model flattens them, so nothing references them; they are published as the shared bases.
    extraComponents: [ProfileParams, SessionParams],
  };
}
