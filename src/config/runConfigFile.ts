import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HarnessError } from '../../core/index.js';
import { decodeRunConfig, encodeRunConfig, type RunConfig } from './runConfig.js';

/**
 * The one channel into the processes of a run (the Playwright runner, its reporters, every worker and spec file):
 * this environment variable names the run-configuration file, read once per process.
 */
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

let current: { path: string; config: RunConfig } | undefined;

/** The configuration named by the environment, or undefined when none is; read once per process (per file named). */
export function runConfigFromEnv(env: NodeJS.ProcessEnv = process.env): RunConfig | undefined {
  const path = env[RUN_CONFIG_ENV];
  if (!path) return undefined;
  if (current?.path !== path) current = { path, config: readRunConfig(path) };
  return current.config;
}

/** The configuration of this process's run; a process outside a run (no variable set) is a usage error. */
export function currentRunConfig(): RunConfig {
  const config = runConfigFromEnv();
  if (!config) throw new HarnessError('USAGE', `no run configuration: ${RUN_CONFIG_ENV} is not set (start runs with \`contract-gate run\`, or through its playwright.config.js)`);
  return config;
}
