import { AUTH_FAULTS } from './authFaults.js';
import { CONTROL_SEQUENCE_FAULTS } from './controlSequenceFaults.js';
import { ENVELOPE_FAULTS } from './envelopeFaults.js';
import { EVENT_FAULTS } from './eventFaults.js';
import type { FaultSeams, GatewayFault } from './faultTypes.js';
import { HOOKS_FAULTS } from './hooksFaults.js';
import { PARAMS_FAULTS } from './paramsFaults.js';
import { REPLAY_FAULTS } from './replayFaults.js';
import { RESULT_FAULTS } from './resultFaults.js';
import { SCENARIO_FAULTS } from './scenarioFaults.js';
import { SEQUENCE_FAULTS } from './sequenceFaults.js';
import { SERVER_REQUEST_FAULTS } from './serverRequestFaults.js';

/** Every fault the reference gateway can be started with, in catalogue order. */
export const GATEWAY_FAULTS: readonly GatewayFault[] = [
  ...ENVELOPE_FAULTS,
  ...PARAMS_FAULTS,
  ...RESULT_FAULTS,
  ...EVENT_FAULTS,
  ...REPLAY_FAULTS,
  ...SCENARIO_FAULTS,
  ...HOOKS_FAULTS,
  ...SERVER_REQUEST_FAULTS,
  ...SEQUENCE_FAULTS,
  ...CONTROL_SEQUENCE_FAULTS,
  ...AUTH_FAULTS,
];

const BY_NAME = new Map(GATEWAY_FAULTS.map((fault) => [fault.name, fault]));

export class UnknownFaultError extends Error {
  constructor(readonly unknown: readonly string[]) {
    super(`unknown fault${unknown.length > 1 ? 's' : ''} ${unknown.map((name) => `"${name}"`).join(', ')}; valid faults: ${GATEWAY_FAULTS.map((fault) => fault.name).join(', ')}`);
    this.name = 'UnknownFaultError';
  }
}

export function faultNamed(name: string): GatewayFault | undefined {
  return BY_NAME.get(name);
}

/** Throws {@link UnknownFaultError} naming every valid fault when a name is not one of them. */
export function assertFaultNames(names: readonly string[]): void {
  const unknown = names.filter((name) => !BY_NAME.has(name));
  if (unknown.length > 0) throw new UnknownFaultError(unknown);
}

/** Switches the named faults on in a core (through its seams), in order; returns the switch-off of all of them. */
export function installFaults(core: { readonly seams: FaultSeams }, names: readonly string[]): () => void {
  assertFaultNames(names);
  const offs = names.map((name) => {
    core.seams.log(`fault ${name} switched on`);
    return (BY_NAME.get(name) as GatewayFault).install(core.seams);
  });
  return () => {
    for (const off of offs.reverse()) off();
  };
}
