import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { type ContractSet, loadContractSet } from './contractSet.js';
import { SchemaValidators, type ValidatorStore } from './schemaValidators.js';

export interface CompiledContracts {
  readonly contracts: ContractSet;
  readonly validators: SchemaValidators;
}

const MAX_ENTRIES = 8;
const cache = new Map<string, CompiledContracts>();

function fingerprint(paths: readonly string[]): string {
  return paths
    .map((path) => {
      const absolute = resolve(path);
      try {
        const stat = statSync(absolute);
        return `${absolute}:${stat.size}:${stat.mtimeMs}`;
      } catch {
        return absolute;
      }
    })
    .join('\n');
}

/**
 * Loads the documents and their validators once per process and set of unchanged files: compiled validators are
 * immutable, so gateways started on the same contracts (a test suite starts many) share them. A schema that cannot
 * be compiled is reported to the log of the gateway that compiled it first. A validator store, when the first
 * gateway on a set of files brings one, keeps compiled validators for later processes.
 */
export function compiledContracts(paths: readonly string[], log: (line: string) => void, store?: ValidatorStore): CompiledContracts {
  const key = fingerprint(paths);
  const cached = cache.get(key);
  if (cached) return cached;
  const contracts = loadContractSet(paths);
  const compiled = { contracts, validators: new SchemaValidators(contracts, log, store) };
  cache.set(key, compiled);
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  return compiled;
}
