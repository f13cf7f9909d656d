import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { HarnessError } from '../../core/harnessError.js';
import { CONFIG_FILE_NAMES } from '../../src/config/configFile.js';
import { EXIT } from '../exitCodes.js';
import { findOpenRpcDocuments } from '../lib/findOpenRpcDocuments.js';
import { type ConfigFormat, starterConfig, starterWorkflow } from '../lib/starterFiles.js';

export const WORKFLOW_PATH = join('.github', 'workflows', 'contract-gate.yml');

function tsxInstalled(root: string): boolean {
  try {
    createRequire(join(root, 'package.json')).resolve('tsx/esm/api');
    return true;
  } catch {
    return false;
  }
}

/**
 * `contract-gate init`: a commented starter configuration naming the repository's OpenRPC documents, and a GitHub
 * Actions workflow using the Action. Nothing is overwritten without --force; everything is checked before
 * anything is written.
 */
export async function initAction(_positionals: string[], options: Record<string, unknown>): Promise<number> {
  const root = process.cwd();
  const format = options['format'] as ConfigFormat;
  const force = options['force'] === true;
  const configFile = `contract-gate.config.${format}`;
  const files = new Map<string, string>();
  const documents = findOpenRpcDocuments(root);
  files.set(configFile, starterConfig(format, documents));
  if (options['workflow'] !== false) files.set(WORKFLOW_PATH, starterWorkflow(configFile));

  const others = CONFIG_FILE_NAMES.filter((name) => name !== configFile && existsSync(join(root, name)));
  if (!force) {
    const taken = [...files.keys()].filter((path) => existsSync(join(root, path)));
    if (taken.length > 0) throw new HarnessError('USAGE', `${taken.join(' and ')} already exist${taken.length === 1 ? 's' : ''}: pass --force to overwrite`);
    if (others.length > 0) throw new HarnessError('USAGE', `${others.join(' and ')} already configure${others.length === 1 ? 's' : ''} contract-gate here: pass --force to write ${configFile} beside it`);
  }
  for (const [path, text] of files) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
    process.stdout.write(`contract-gate: wrote ${path}\n`);
  }
  if (others.length > 0) process.stdout.write(`contract-gate: note: ${others[0]} is found before ${configFile} (order: ${CONFIG_FILE_NAMES.join(', ')}); remove it or pass --config ${configFile}\n`);
  if (documents.length > 0) {
    process.stdout.write(`contract-gate: found ${documents.length} OpenRPC document(s): ${documents.join(', ')}\n`);
  } else {
    process.stdout.write("contract-gate: found no OpenRPC document in this repository: the configuration runs against the embedded reference gateway with the profile's default documents\n");
  }
  if (format === 'ts' && !tsxInstalled(root)) process.stdout.write('contract-gate: a .ts configuration is loaded with tsx: npm i -D tsx\n');
  process.stdout.write('\nNext: npx contract-gate run\n');
  return EXIT.OK;
}
