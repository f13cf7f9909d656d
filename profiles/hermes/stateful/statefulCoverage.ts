import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../../src/config/packagePaths.js';
import { ANSWER_REQUEST_COMMAND, HERMES_COMMANDS } from './hermesCommands.js';

/**
 * Which methods of the Hermes documents the session model covers: the ones its commands call, and the ones it
 * leaves out, each with the reason (statefulExclusions.json). docs/stateful.md and its test read both from here.
 */

export const HERMES_CONTRACTS_DIR = join(PACKAGE_ROOT, 'profiles', 'hermes', 'contracts');
const EXCLUSIONS_FILE = join(PACKAGE_ROOT, 'profiles', 'hermes', 'stateful', 'statefulExclusions.json');

/** Method → why the model does not call it. */
export const STATEFUL_EXCLUSIONS: Readonly<Record<string, string>> = (JSON.parse(readFileSync(EXCLUSIONS_FILE, 'utf8')) as { excluded: Record<string, string> }).excluded;

/** Method → the commands that call it, in the order of the command list. */
export function modelledMethods(): Map<string, string[]> {
  const byMethod = new Map<string, string[]>();
  for (const command of [...HERMES_COMMANDS, ANSWER_REQUEST_COMMAND]) {
    for (const method of command.calls ?? []) byMethod.set(method, [...(byMethod.get(method) ?? []), command.name]);
  }
  return byMethod;
}

/** Every OpenRPC document of the profile, by file name, with the names of its methods. */
export function hermesDocumentMethods(): Map<string, string[]> {
  const documents = new Map<string, string[]>();
  for (const file of readdirSync(HERMES_CONTRACTS_DIR).filter((name) => name.endsWith('.openrpc.json')).sort()) {
    const document = JSON.parse(readFileSync(join(HERMES_CONTRACTS_DIR, file), 'utf8')) as { methods: Array<{ name: string }> };
    documents.set(file, document.methods.map((method) => method.name));
  }
  return documents;
}

export interface CoverageGaps {
  /** Declared by a document, called by no command, and not excluded. */
  readonly unclassified: string[];
  /** Both called by a command and excluded. */
  readonly contradictory: string[];
  /** Excluded, but declared by no document. */
  readonly stale: string[];
}

export function coverageGaps(documents: ReadonlyMap<string, readonly string[]> = hermesDocumentMethods()): CoverageGaps {
  const modelled = modelledMethods();
  const declared = new Set([...documents.values()].flat());
  const excluded = Object.keys(STATEFUL_EXCLUSIONS);
  return {
    unclassified: [...declared].filter((method) => !modelled.has(method) && STATEFUL_EXCLUSIONS[method] === undefined).sort(),
    contradictory: excluded.filter((method) => modelled.has(method)).sort(),
    stale: excluded.filter((method) => !declared.has(method)).sort(),
  };
}
