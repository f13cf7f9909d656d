import { readFileSync } from 'node:fs';
import type { MatrixContract, MatrixRun } from '../src/report/matrixTypes.js';

/** The environment `contract-gate run` gives the reporters; the token is never part of it. */
export const RUN_ENV = {
  reportDir: 'CONTRACT_GATE_REPORT_DIR',
  target: 'CONTRACT_GATE_TARGET_LABEL',
  contracts: 'CONTRACT_GATE_CONTRACTS',
  seed: 'CONTRACT_GATE_SEED',
  baseline: 'CONTRACT_GATE_BASELINE',
  shard: 'CONTRACT_GATE_SHARD',
} as const;

function readContract(path: string): MatrixContract {
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`${RUN_ENV.contracts}: cannot read contract ${path}: ${(error as Error).message}`);
  }
  const info = (document as { info?: { title?: unknown; version?: unknown } } | null)?.info;
  if (typeof info?.title !== 'string' || typeof info.version !== 'string') {
    throw new Error(`${RUN_ENV.contracts}: contract ${path} has no string info.title and info.version`);
  }
  return { title: info.title, version: info.version, path };
}

function readContracts(raw: string | undefined): MatrixContract[] {
  if (raw === undefined || raw.trim() === '') return [];
  let paths: unknown;
  try {
    paths = JSON.parse(raw);
  } catch {
    paths = undefined;
  }
  if (!Array.isArray(paths) || !paths.every((path): path is string => typeof path === 'string')) {
    throw new Error(`${RUN_ENV.contracts} must be a JSON array of contract file paths, got ${JSON.stringify(raw)}`);
  }
  return paths.map(readContract);
}

function readSeed(raw: string | undefined): number | null {
  if (raw === undefined || raw.trim() === '') return null;
  const seed = Number(raw);
  if (!Number.isSafeInteger(seed)) throw new Error(`${RUN_ENV.seed} must be an integer, got ${JSON.stringify(raw)}`);
  return seed;
}

/** Run facts for the matrix header. `shardFromConfig` is Playwright's own `config.shard`, used when the env var is absent. */
export function runFromEnv(env: NodeJS.ProcessEnv, shardFromConfig?: { current: number; total: number } | null): MatrixRun {
  const run: MatrixRun = {
    target: env[RUN_ENV.target]?.trim() || 'not set',
    contracts: readContracts(env[RUN_ENV.contracts]),
    seed: readSeed(env[RUN_ENV.seed]),
  };
  const shard = env[RUN_ENV.shard]?.trim() || (shardFromConfig ? `${shardFromConfig.current}/${shardFromConfig.total}` : undefined);
  if (shard) run.shard = shard;
  return run;
}
