import type { GatewayCore } from '../core/gatewayCore.js';
import { ENVELOPE_FAULTS } from './envelopeFaults.js';
import { EVENT_FAULTS } from './eventFaults.js';
import type { FaultSpec, GatewayFault } from './faultTypes.js';
import { HOOKS_FAULTS } from './hooksFaults.js';
import { PARAMS_FAULTS } from './paramsFaults.js';
import { REPLAY_FAULTS } from './replayFaults.js';
import { RESULT_FAULTS } from './resultFaults.js';
import { SCENARIO_FAULTS } from './scenarioFaults.js';

const named = (specs: Record<string, FaultSpec>): GatewayFault[] => Object.entries(specs).map(([name, spec]) => ({ name, ...spec }));

/** Every fault the reference gateway can be started with, in catalogue order. */
export const GATEWAY_FAULTS: readonly GatewayFault[] = [
  ...named(ENVELOPE_FAULTS),
  ...named(PARAMS_FAULTS),
  ...named(RESULT_FAULTS),
  ...named(EVENT_FAULTS),
  ...named(REPLAY_FAULTS),
  ...named(SCENARIO_FAULTS),
  ...named(HOOKS_FAULTS),
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

/** Switches the named faults on in `core`, in order; returns the switch-off of all of them. */
export function installFaults(core: GatewayCore, names: readonly string[]): () => void {
  assertFaultNames(names);
  const offs = names.map((name) => {
    core.rt.log(`fault ${name} switched on`);
    return (BY_NAME.get(name) as GatewayFault).install(core);
  });
  return () => {
    for (const off of offs.reverse()) off();
  };
}
