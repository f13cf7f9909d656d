/**
 * contract-gate/stateful: model-based runs for any JSON-RPC contract. Write a model (initial state, commands with
 * a precondition, a run that judges one answer, and a pure transition), give it a factory of systems, and run it
 * with the same engine, shrinking and replay files the `stateful.*` checks use. The Hermes session model is one
 * such model; `examples/stateful-counter/` is another, for a non-Hermes document.
 */
export { describeStep, replayStateful, runStateful, DEFAULT_SHRINK_BUDGET_MS, type StatefulSystems } from './engine/runStateful.js';
export type { ModelRule, Observation, StatefulCommand, StatefulMode, StatefulModel, StatefulOptions, StatefulResult, StatefulTimings, Step, StepFailure, SystemFactory } from './engine/statefulTypes.js';
export { HERMES_MODEL_METHODS, hermesSessionModel, type HermesModelOptions } from './hermes/hermesSessionModel.js';
export { HERMES_RULES } from './hermes/hermesRules.js';
export type { HermesState } from './hermes/hermesModel.js';
export { HermesSide, hermesSides, type ConnectClient } from './runner/hermesSide.js';
export { replayHermesStateful, runHermesStateful, type HermesStatefulSetup } from './runner/hermesStateful.js';
export { outcomeClass, resultOf } from './hermes/hermesObserve.js';
export { RpcClient, type RpcClientOptions } from '../client/rpcClient.js';
export { buildStatefulReplayFile, readStatefulReplayFile, writeStatefulReplayFile, type StatefulReplayFile } from '../replay/statefulReplayFile.js';
