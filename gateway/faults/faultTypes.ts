import type { AuthRelaxations } from '../auth/authRelaxations.js';
import type { ContractSet } from '../core/contract/contractSet.js';
import type { SchemaValidators } from '../core/contract/schemaValidators.js';
import type { InboundGate } from '../core/inboundGate.js';
import type { OutboundFunnel } from '../core/outboundFunnel.js';
import type { AnswerGate } from '../core/serverRequests.js';
import type { EmitGate } from '../core/sessionEvents.js';
import type { HandlerFailure } from '../hooks/hookBus.js';

/**
 * What a fault may touch: the core's seams and the contract it serves, nothing else. Every fault is installed
 * through these, so its state lives in the closure its `install` creates, in the core it was installed in.
 */
export interface FaultSeams {
  /** Every outgoing frame (ready frame, responses, events). */
  readonly funnel: OutboundFunnel;
  /** Every parsed incoming frame, before the envelope rules. */
  readonly inbound: InboundGate;
  /** Tells `listener` about every hook handler that threw, rejected or timed out; returns the unsubscription. */
  onHookFailure(listener: (failure: HandlerFailure) => void): () => void;
  /** Every session event, before it is stamped: a gate may suppress it (no seq, not in the ring, not sent). */
  gateEvents(gate: EmitGate): () => void;
  /** Every accepted answer to a server request, before it reaches the turn that waits for it. */
  gateAnswers(gate: AnswerGate): () => void;
  /** The rules of gated mode a fault may switch off (they matter only when the gateway runs gated). */
  readonly auth: AuthRelaxations;
  readonly contracts: ContractSet;
  readonly validators: SchemaValidators;
  readonly legacyMessages: boolean;
  readonly log: (line: string) => void;
}

/**
 * A deliberately wrong behaviour of the reference gateway, switched on by name (`GatewayOptions.faults`,
 * `contract-gate serve --fault NAME`), so that the harness's own self-test can show that each check fails for
 * the fault it is meant to catch.
 */
export interface GatewayFault {
  readonly name: string;
  /** What it breaks, in one line. */
  readonly breaks: string;
  /** The public check id meant to catch it. */
  readonly check: string;
  /** Switches the fault on through the seams; returns the switch-off. */
  install(seams: FaultSeams): () => void;
}
