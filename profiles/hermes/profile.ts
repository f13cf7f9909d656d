import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadBindingRules, NO_BINDINGS } from '../../src/binding/index.js';
import { codeProfileFromData } from '../../src/checks/codeProfile.js';
import type { Profile } from '../../src/profile/profile.js';
import { HERMES_AUTH } from './auth/hermesAuth.js';
import { hermesCells } from './cells/hermesCells.js';
import { HERMES_CHECKS } from './checks.js';
import { HERMES_DIALECT } from './dialect.js';
import { HERMES_CODES } from './errorCodes.js';
import { HERMES_FULL_CONTRACT, HOOKS_EXTENSION } from './paths.js';
import { REFERENCE_GATEWAY } from './referenceGateway.js';
import { HERMES_STATEFUL_REPLAYER } from './stateful/statefulReplayRunner.js';

/** Hermes documents are recognised by their generator's title. */
export const HERMES_CONTRACT_TITLE = 'Hermes TUI/Desktop gateway';

/**
 * The Hermes TUI/Desktop gateway (spec/hermes-wire.md): the params-object layout answered with 4000 and the
 * out-of-sync wording, `gateway.ready` and `event` notifications with a per-session seq, the session lifecycle,
 * replay, hook, topology and stateful scenarios, the gated dashboard's tickets, and the reference gateway.
 */
export const HERMES_PROFILE: Profile = {
  name: 'hermes',
  description: 'the Hermes TUI/Desktop gateway: 4000 for refused params, gateway.ready and event notifications, session scenarios, gated tickets',
  codes: codeProfileFromData(HERMES_CODES),
  recognises: (contract) => contract.title === HERMES_CONTRACT_TITLE,
  defaultContracts: [HERMES_FULL_CONTRACT],
  defaultExtensions: () => [HOOKS_EXTENSION],
  bindingsFor(contract) {
    if (/^https?:/.test(contract.origin)) return NO_BINDINGS;
    const beside = join(dirname(contract.origin), 'bindings.json');
    return existsSync(beside) ? loadBindingRules(beside) : NO_BINDINGS;
  },
  wire: {
    dialect: HERMES_DIALECT,
    probe: { method: 'gateway.ping', params: {} },
    // The gateway answers gateway.ping inline, before dispatch and without its contract (spec §1.3).
    inlineMethods: ['gateway.ping'],
    readyTimeoutMs: 2_000,
  },
  checks: HERMES_CHECKS,
  cells: hermesCells,
  auth: HERMES_AUTH,
  referenceGateway: REFERENCE_GATEWAY,
  statefulReplay: HERMES_STATEFUL_REPLAYER,
};
