import { RpcClient } from '../client/rpcClient.js';
import type { Step, StepFailure } from '../stateful/engine/statefulTypes.js';
import { describeStep } from '../stateful/engine/runStateful.js';
import { hermesSessionModel } from '../stateful/hermes/hermesSessionModel.js';
import { replayHermesStateful } from '../stateful/runner/hermesStateful.js';
import { HarnessError } from '../../core/index.js';
import type { StatefulReplayFile } from './statefulReplayFile.js';

export interface StatefulReplayOutcome {
  readonly reproduced: boolean;
  readonly failure: StepFailure | undefined;
  /** The calls that ran, numbered as in the report. */
  readonly calls: string[];
}

/** Runs the recorded sequence again against `targetUrl` (and, for a differential file, a reference at `referenceUrl`). */
export async function runStatefulReplay(file: StatefulReplayFile, urls: { target: string; reference?: string; token?: string }, requestTimeoutMs: number): Promise<StatefulReplayOutcome> {
  if (file.model !== 'hermes-session') throw new HarnessError('REPLAY_FILE_INVALID', `stateful replay of model ${file.model} is not supported by the command line; run it through the library (contract-gate/stateful)`);
  const connect = (url: string, token: string | undefined) => (options: { name: string }) => RpcClient.connect({ url, readyTimeoutMs: 2_000, requestTimeoutMs, ...(token ? { token } : {}), ...options });
  if (file.mode === 'differential' && !urls.reference) throw new HarnessError('USAGE', 'a differential replay needs a reference gateway');
  const setup = {
    target: connect(urls.target, urls.token),
    ...(urls.reference ? { reference: connect(urls.reference, undefined) } : {}),
    serverRequests: file.serverRequests,
    requestTimeoutMs,
  };
  const { failure, executed } = await replayHermesStateful(setup, file.mode, file.steps);
  const model = hermesSessionModel({ serverRequests: file.serverRequests });
  return { reproduced: failure !== undefined, failure, calls: executed.map((step: Step, index) => `${index + 1}. ${describeStep(model, step)}`) };
}
