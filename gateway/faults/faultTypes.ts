import type { GatewayCore } from '../core/gatewayCore.js';

/**
 * A deliberately wrong behaviour of the reference gateway, switched on by name (`GatewayOptions.faults`,
 * `contract-gate serve --fault NAME`), so that the harness's own self-test can show that each check fails for
 * the fault it is meant to catch. A fault lives in the core it was installed in and nowhere else.
 */
export interface GatewayFault {
  readonly name: string;
  /** What it breaks, in one line. */
  readonly breaks: string;
  /** The public check id meant to catch it. */
  readonly check: string;
  /** Switches the fault on in `core` through its seams (funnel, inbound gate, hook bus); returns the switch-off. */
  install(core: GatewayCore): () => void;
}

/** A fault by its parts; the name is the key it is registered under. */
export type FaultSpec = Omit<GatewayFault, 'name'>;
