import { replayStateful, runStateful, runStatefulBoth, type StatefulSystems } from '../../../src/stateful/engine/runStateful.js';
import type { StatefulMode, StatefulOptions, StatefulResult, Step, StepFailure } from '../../../src/stateful/engine/statefulTypes.js';
import { hermesSessionModel } from './hermesSessionModel.js';
import { type ConnectClient, type HermesSide, hermesSides } from './hermesSide.js';

/** How long one fake-agent turn may take (a `/slow 250` turn included) before the model calls it lost. */
export const TURN_TIMEOUT_MS = 3_000;
/** How long to wait for a `session.info` that follows a create, resume or branch. */
export const SETTLE_TIMEOUT_MS = 1_500;

export interface HermesStatefulSetup {
  readonly target: ConnectClient;
  /** The reference the differential mode runs in lockstep with (required for `differential`). */
  readonly reference?: ConnectClient;
  /** Server requests the target's contract declares. */
  readonly serverRequests: readonly string[];
  /** Methods the target's contract declares (commands calling others are not drawn); absent: every command. */
  readonly methods?: ReadonlySet<string>;
  readonly requestTimeoutMs: number;
}

function systems(setup: HermesStatefulSetup): StatefulSystems<HermesSide> {
  const side = (connect: ConnectClient, label: string) =>
    hermesSides({ connect, label, requestTimeoutMs: setup.requestTimeoutMs, turnTimeoutMs: TURN_TIMEOUT_MS, settleTimeoutMs: SETTLE_TIMEOUT_MS });
  return { target: side(setup.target, 'target'), ...(setup.reference ? { reference: side(setup.reference, 'reference') } : {}) };
}

/** Random sequences of the Hermes session model against a target (and a reference in differential mode). */
export function runHermesStateful(setup: HermesStatefulSetup, mode: StatefulMode, options: StatefulOptions): Promise<StatefulResult> {
  return runStateful(hermesSessionModel({ serverRequests: setup.serverRequests, ...(setup.methods ? { methods: setup.methods } : {}) }), systems(setup), mode, options);
}

/** Both modes of the Hermes model from one lockstep search (see `runStatefulBoth`). */
export function runHermesStatefulBoth(setup: HermesStatefulSetup, options: StatefulOptions): Promise<Record<StatefulMode, StatefulResult>> {
  return runStatefulBoth(hermesSessionModel({ serverRequests: setup.serverRequests, ...(setup.methods ? { methods: setup.methods } : {}) }), systems(setup), options);
}

/** One recorded sequence of the Hermes model again. */
export function replayHermesStateful(setup: HermesStatefulSetup, mode: StatefulMode, steps: readonly Step[]): Promise<{ failure: StepFailure | undefined; executed: Step[] }> {
  return replayStateful(hermesSessionModel({ serverRequests: setup.serverRequests }), systems(setup), mode, steps);
}
