import type { RpcClient } from '../client/rpcClient.js';
import type { GatewayPlacement } from '../config/parallelism.js';
import type { RunPlan } from '../run/runPlan.js';

/** A gateway the harness started itself: where it listens, and how to stop it. */
export interface EmbeddedGateway {
  readonly url: string;
  /** Its JSON-RPC over HTTP endpoint, when it has one. */
  readonly httpUrl: string | undefined;
  close(): Promise<void>;
}

/** What a run needs from the gateway a profile embeds when the run is given no target. */
export interface ReferenceGateway {
  /** A one-line name for banners ("embedded reference gateway"). */
  readonly label: string;
  /** Throws a usage error naming the first fault it does not know (`--fault`). */
  assertFaults(names: readonly string[]): void;
  /**
   * Starts one for the run's documents and options (faults, older wording, gated mode, seed); `child-process`
   * starts it in a child process that hosts every gateway this process starts so (default: in this process).
   */
  start(plan: RunPlan, placement?: GatewayPlacement): Promise<EmbeddedGateway>;
  /**
   * Makes the gateway emit each of these declared event types once (the events its scripted drivers did not
   * provoke), on `client`, so that every event cell judges a real payload; returns the sessions it created.
   */
  emitUnseenEvents?(plan: RunPlan, client: RpcClient, types: readonly string[]): Promise<string[]>;
}
