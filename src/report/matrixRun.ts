import { readFileSync } from 'node:fs';
import { isJsonObject, type JsonObject } from '../../core/index.js';
import type { RunConfig } from '../config/runConfig.js';
import { loadedContract } from '../contracts/loadContract.js';
import type { MatrixContract, MatrixRun } from './matrixTypes.js';

/** The title and version a report shows for a contract (read from its `info`; "?" when the file cannot tell). */
function contractFacts(path: string): MatrixContract {
  if (/^https?:/i.test(path)) return { title: '?', version: '?', path };
  const declared = documentAt(path)?.['info'];
  const info = isJsonObject(declared) ? declared : {};
  return { title: typeof info['title'] === 'string' ? info['title'] : '?', version: typeof info['version'] === 'string' ? info['version'] : '?', path };
}

/**
 * The document at `path`: the one this process's run already loaded while the file is unchanged (no second parse of
 * a large file), else as the file holds it.
 */
function documentAt(path: string): JsonObject | undefined {
  try {
    const text = readFileSync(path, 'utf8');
    const document: unknown = loadedContract(path, text)?.document ?? JSON.parse(text);
    return isJsonObject(document) ? document : undefined;
  } catch {
    return undefined;
  }
}

/** The run facts of a matrix header, from the run configuration (target as displayed, contracts, seed, shard). */
export function matrixRunOf(config: RunConfig): MatrixRun {
  const run: MatrixRun = { target: config.target.label, contracts: config.contracts.map(contractFacts), seed: config.seed };
  if (config.shard) run.shard = `${config.shard.index}/${config.shard.total}`;
  if (config.failOnFlaky) run.failOnFlaky = true;
  if (config.minCoverage > 0) run.minCoverage = config.minCoverage;
  return run;
}
