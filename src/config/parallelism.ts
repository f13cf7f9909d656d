import { availableParallelism } from 'node:os';
import type { RunConfig } from './runConfig.js';

export interface Parallelism {
  /** Playwright workers of the run (playwright.config.ts). */
  readonly workers: number;
  /** Each worker's share of the run's politeness towards the target (fixtures/flow.ts). */
  readonly perWorker: { readonly maxInFlight: number; readonly ratePerSecond?: number };
}

/**
 * How many workers the run has and how the in-flight and rate limits are split over them. Decided here only: the
 * Playwright configuration takes `workers`, every worker's flow control `perWorker`, so the split always matches
 * the workers actually started. Without `--workers`: 2 in CI, else half the CPUs. Each worker is allowed at least
 * one request in flight, so more workers than `--max-in-flight` raise the total to one per worker.
 */
export function parallelismOf(config: Pick<RunConfig, 'workers' | 'maxInFlight' | 'ratePerSecond'>, env: NodeJS.ProcessEnv = process.env, cpus = availableParallelism()): Parallelism {
  const workers = config.workers ?? (env['CI'] ? 2 : Math.max(1, Math.floor(cpus / 2)));
  const maxInFlight = Math.max(1, Math.floor(config.maxInFlight / workers));
  return { workers, perWorker: { maxInFlight, ...(config.ratePerSecond ? { ratePerSecond: config.ratePerSecond / workers } : {}) } };
}

/** Where a run's embedded gateways run: in the harness's process, or in the one child process that hosts its gateways. */
export type GatewayPlacement = 'this-process' | 'child-process';

/**
 * The fewest method runs for which a run's preparation gateways move to the child process. The child costs a process
 * start and a message round trip per gateway it starts; what it saves is the harness's heap and core, which matter
 * only on a large document. Measured on 2 cores (wall of `contract-gate run` against the embedded gateway, this
 * process against the child): 33 method runs 5.7 against 6.2 s; 132 runs of a 278-method document 7.9 against
 * 9.1 s; all 278 16.7 against 15.8 s, and 362-385 MB in one process against 283-290 MB for the largest with the
 * child (the goal is 300 MB). The bound lies between the largest run measured faster here and the whole document.
 */
export const CHILD_PROCESS_FROM_METHOD_RUNS = 150;

/** `by-size`: the child process from CHILD_PROCESS_FROM_METHOD_RUNS method runs on, this process below. */
export function placementFor(choice: GatewayPlacement | 'by-size', methodRuns: number): GatewayPlacement {
  if (choice !== 'by-size') return choice;
  return methodRuns >= CHILD_PROCESS_FROM_METHOD_RUNS ? 'child-process' : 'this-process';
}
