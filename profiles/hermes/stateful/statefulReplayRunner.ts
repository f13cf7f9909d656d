import type { Step } from '../../../src/stateful/engine/statefulTypes.js';
import { describeStep } from '../../../src/stateful/engine/runStateful.js';
import type { StatefulReplayer } from '../../../src/profile/statefulReplayer.js';
import { HarnessError } from '../../../core/index.js';
import { hermesSessionModel } from './hermesSessionModel.js';
import { replayHermesStateful } from './hermesStateful.js';

/** The model name Hermes stateful replay files carry. */
export const HERMES_SESSION_MODEL = 'hermes-session';

/** Runs a recorded sequence of the Hermes session model again (against a reference too, for a differential file). */
export const HERMES_STATEFUL_REPLAYER: StatefulReplayer = {
  models: [HERMES_SESSION_MODEL],
  async replay(file, connect, requestTimeoutMs) {
    if (file.mode === 'differential' && !connect.reference) throw new HarnessError('USAGE', 'a differential replay needs a reference gateway');
    const setup = { target: connect.target, ...(connect.reference ? { reference: connect.reference } : {}), serverRequests: file.serverRequests, requestTimeoutMs };
    const { failure, executed } = await replayHermesStateful(setup, file.mode, file.steps);
    const model = hermesSessionModel({ serverRequests: file.serverRequests });
    return { reproduced: failure !== undefined, failure, calls: executed.map((step: Step, index) => `${index + 1}. ${describeStep(model, step)}`) };
  },
};
