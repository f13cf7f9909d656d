import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HarnessError } from '../../core/index.js';
import { checkConfig, type CheckedConfig } from './configCheck.js';

/** Looked for in this order in each folder, from the working directory upward (as Playwright finds its own). */
export const CONFIG_FILE_NAMES = ['contract-gate.config.ts', 'contract-gate.config.mjs', 'contract-gate.config.json'] as const;

export interface LoadedConfig extends CheckedConfig {
  readonly path: string;
  /** Relative paths in the file are relative to this folder. */
  readonly dir: string;
}

function inFolder(dir: string): string | undefined {
  return CONFIG_FILE_NAMES.map((name) => join(dir, name)).find((path) => existsSync(path));
}

/** The configuration file of a folder or of the nearest folder above it, if any. */
export function findConfigFile(from: string): string | undefined {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    const found = inFolder(dir);
    if (found) return found;
    if (dirname(dir) === dir) return undefined;
  }
}

/** `--config`: a file, or a folder holding one of the file names. */
export function configFileAt(given: string, cwd: string): string {
  const path = resolve(cwd, given);
  if (!existsSync(path)) throw new HarnessError('USAGE', `--config ${given}: no such file`);
  if (!statSync(path).isDirectory()) return path;
  const found = inFolder(path);
  if (!found) throw new HarnessError('USAGE', `--config ${given}: the folder holds none of ${CONFIG_FILE_NAMES.join(', ')}`);
  return found;
}

/** tsx, from the project of the file first (a user's own devDependency), then from contract-gate's. */
function tsxApi(path: string): string | undefined {
  for (const from of [path, import.meta.url]) {
    try {
      return createRequire(from).resolve('tsx/esm/api');
    } catch {
      // not installed there
    }
  }
  return undefined;
}

async function importTypeScript(path: string): Promise<unknown> {
  const api = tsxApi(path);
  if (!api) {
    throw new HarnessError('USAGE', `${path}: a TypeScript configuration needs the loader tsx, which is not installed: \`npm i -D tsx\`, or write contract-gate.config.mjs (or .json) instead`);
  }
  const { tsImport } = (await import(pathToFileURL(api).href)) as { tsImport: (specifier: string, parent: string) => Promise<{ default?: unknown }> };
  return (await tsImport(pathToFileURL(path).href, import.meta.url)).default;
}

async function contentOf(path: string): Promise<unknown> {
  const extension = extname(path);
  if (extension === '.json') {
    try {
      return JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      throw new HarnessError('USAGE', `${path} is not JSON: ${(error as Error).message}`);
    }
  }
  try {
    if (extension === '.ts' || extension === '.mts') return await importTypeScript(path);
    if (extension === '.mjs' || extension === '.js') return ((await import(pathToFileURL(path).href)) as { default?: unknown }).default;
  } catch (error) {
    if (HarnessError.is(error)) throw error;
    throw new HarnessError('USAGE', `${path} could not be loaded: ${(error as Error).message}`, { cause: error });
  }
  throw new HarnessError('USAGE', `${path}: a configuration file is .ts, .mjs or .json`);
}

/** Loads and checks a configuration file (its default export, for .ts and .mjs). */
export async function loadConfigFile(path: string): Promise<LoadedConfig> {
  const checked = checkConfig(await contentOf(path), path);
  return { ...checked, path, dir: dirname(path) };
}
