/**
 * contract-gate/stateful: model-based runs for any JSON-RPC contract. Write a model (initial state, commands with
 * a precondition, a run that judges one answer, and a pure transition), give it a factory of systems, and run it
 * with the same engine, shrinking and replay files the `stateful.*` checks use. A profile's session model is one
 * such model; `examples/stateful-notes/` is another, for a document of its own.
 */
export { describeStep, replayStateful, runStateful, runStatefulBoth, DEFAULT_SHRINK_BUDGET_MS, type StatefulSystems } from './engine/runStateful.js';
export type { ModelRule, Observation, StatefulCommand, StatefulMode, StatefulModel, StatefulOptions, StatefulResult, StatefulTimings, Step, StepFailure, SystemFactory } from './engine/statefulTypes.js';
export { lengthOf, outcomeClass, resultOf, shortAnswer } from './engine/observe.js';
export { RpcClient, type RpcClientOptions } from '../client/rpcClient.js';
export { buildStatefulReplayFile, readStatefulReplayFile, writeStatefulReplayFile, type StatefulReplayFile } from '../replay/statefulReplayFile.js';
