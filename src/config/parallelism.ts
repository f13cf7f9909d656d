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
