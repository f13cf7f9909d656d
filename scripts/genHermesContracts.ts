/**
 * Writes the contract documents under contracts/ from the models in scripts/hermesModels/.
 *
 *   npx tsx scripts/genHermesContracts.ts            regenerate
 *   npx tsx scripts/genHermesContracts.ts --check    exit 1 when a committed file differs (byte for byte)
 *   --root <dir>                                     write/check under <dir> instead of the repository
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ContractSpec } from './hermesModels/modelDsl.js';
import { renderOpenRpc, serializeOpenRpc } from './hermesModels/renderOpenRpc.js';
import { sessionHooksContract } from './hermesModels/sessionHooksContract.js';
import { sessionLifecycleContract } from './hermesModels/sessionLifecycleContract.js';

export const generatedContracts: ReadonlyArray<{ readonly path: string; readonly spec: ContractSpec }> = [
  { path: 'profiles/hermes/contracts/session-lifecycle.openrpc.json', spec: sessionLifecycleContract('current') },
  { path: 'profiles/hermes/contracts/session-lifecycle.pre-cwd-explicit.openrpc.json', spec: sessionLifecycleContract('pre-cwd-explicit') },
  { path: 'profiles/hermes/contracts/session-hooks.openrpc.json', spec: sessionHooksContract },
];

const REGENERATE = 'npx tsx scripts/genHermesContracts.ts';

function readOrUndefined(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Returns the process exit code. */
export function genHermesContracts(root: string, check: boolean): number {
  let stale = 0;
  for (const { path, spec } of generatedContracts) {
    const text = serializeOpenRpc(renderOpenRpc(spec));
    const file = join(root, path);
    if (!check) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
      console.log(`wrote ${path}`);
    } else if (readOrUndefined(file) !== text) {
      console.error(`${path} is stale (not what the models render): run \`${REGENERATE}\` and commit the result`);
      stale++;
    }
  }
  if (check && stale === 0) console.log(`${generatedContracts.length} contract documents are current`);
  return stale === 0 ? 0 : 1;
}

function main(argv: readonly string[]): number {
  const rootFlag = argv.indexOf('--root');
  const rootArg = rootFlag === -1 ? undefined : argv[rootFlag + 1];
  if (rootFlag !== -1 && rootArg === undefined) {
    console.error('--root needs a directory');
    return 2;
  }
  const root = rootArg === undefined ? resolve(dirname(fileURLToPath(import.meta.url)), '..') : resolve(rootArg);
  return genHermesContracts(root, argv.includes('--check'));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
