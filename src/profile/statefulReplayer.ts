import type { RpcClient } from '../client/rpcClient.js';
import type { StatefulReplayFile } from '../replay/statefulReplayFile.js';
import type { StepFailure } from '../stateful/engine/statefulTypes.js';

/** Opens one connection of a replayed sequence (named after the model's client: `c1`, `c2`, …). */
export type ReplayConnect = (options: { name: string }) => Promise<RpcClient>;

export interface StatefulReplayOutcome {
  readonly reproduced: boolean;
  readonly failure: StepFailure | undefined;
  /** The calls that ran, numbered as in the report. */
  readonly calls: string[];
}

/** Runs a recorded stateful counterexample of one of the profile's models again. */
export interface StatefulReplayer {
  /** The `model` names of the replay files it can run. */
  readonly models: readonly string[];
  replay(file: StatefulReplayFile, connect: { target: ReplayConnect; reference?: ReplayConnect }, requestTimeoutMs: number): Promise<StatefulReplayOutcome>;
}
