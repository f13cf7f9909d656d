import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { HarnessError } from '../../core/index.js';
import { importModule } from '../../core/importModule.js';
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

type TsImport = (specifier: string, parent: string) => Promise<unknown>;

/** tsx's loader API (its ES module entry), from the project of the file first (a user's devDependency), then from contract-gate's. */
async function tsxApi(path: string): Promise<TsImport | undefined> {
  for (const from of [path, fileURLToPath(import.meta.url)]) {
    let manifest: string;
    try {
      manifest = createRequire(from).resolve('tsx/package.json');
    } catch {
      continue;
    }
    const exports = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: Record<string, { import?: { default?: string } }> }).exports;
    const entry = exports?.['./esm/api']?.import?.default;
    if (entry) return (await importModule<{ tsImport: TsImport }>(pathToFileURL(join(dirname(manifest), entry)).href)).tsImport;
  }
  return undefined;
}

/** What a module exports as default, through the wrappers a CommonJS-compiled module gets (a config never has a `default` key). */
function defaultExport(namespace: unknown): unknown {
  let value = namespace;
  for (let depth = 0; depth < 3 && typeof value === 'object' && value !== null && 'default' in value; depth++) value = (value as { default: unknown }).default;
  return value;
}

async function importTypeScript(path: string): Promise<unknown> {
  const tsImport = await tsxApi(path);
  if (!tsImport) {
    throw new HarnessError('USAGE', `${path}: a TypeScript configuration needs the loader tsx, which is not installed: \`npm i -D tsx\`, or write contract-gate.config.mjs (or .json) instead`);
  }
  return defaultExport(await tsImport(pathToFileURL(path).href, pathToFileURL(path).href));
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
    if (extension === '.mjs' || extension === '.js') return defaultExport(await importModule(pathToFileURL(path).href));
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
