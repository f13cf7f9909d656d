import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HarnessError } from '../../core/index.js';
import { decodeRunConfig, encodeRunConfig, type RunConfig } from './runConfig.js';

/** The one environment variable of a run: the path of its configuration file. */
export const RUN_CONFIG_ENV = 'CONTRACT_GATE_RUN_CONFIG';
export const RUN_CONFIG_FILE = 'run-config.json';

/** Writes the configuration into its report folder; returns the file's path. */
export function writeRunConfig(config: RunConfig): string {
  mkdirSync(config.reportDir, { recursive: true });
  const path = join(config.reportDir, RUN_CONFIG_FILE);
  writeFileSync(path, encodeRunConfig(config));
  return path;
}

export function readRunConfig(path: string): RunConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new HarnessError('USAGE', `cannot read the run configuration ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); start runs with \`contract-gate run\``);
  }
  return decodeRunConfig(text, path);
}

/** The configuration named by the environment, or undefined when none is (a bare `playwright test`). */
export function runConfigFromEnv(env: NodeJS.ProcessEnv = process.env): RunConfig | undefined {
  const path = env[RUN_CONFIG_ENV];
  return path ? readRunConfig(path) : undefined;
}
