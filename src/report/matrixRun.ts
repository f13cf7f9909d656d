import { readFileSync } from 'node:fs';
import { isJsonObject } from '../../core/index.js';
import type { RunConfig } from '../config/runConfig.js';
import type { MatrixContract, MatrixRun } from './matrixTypes.js';

/** The title and version a report shows for a contract (read from its `info`; "?" when the file cannot tell). */
function contractFacts(path: string): MatrixContract {
  try {
    const document: unknown = /^https?:/i.test(path) ? undefined : JSON.parse(readFileSync(path, 'utf8'));
    const info = isJsonObject(document) && isJsonObject(document['info']) ? document['info'] : {};
    return { title: typeof info['title'] === 'string' ? info['title'] : '?', version: typeof info['version'] === 'string' ? info['version'] : '?', path };
  } catch {
    return { title: '?', version: '?', path };
  }
}

/** The run facts of a matrix header, from the run configuration (target as displayed, contracts, seed, shard). */
export function matrixRunOf(config: RunConfig): MatrixRun {
  const run: MatrixRun = { target: config.target.label, contracts: config.contracts.map(contractFacts), seed: config.seed };
  if (config.shard) run.shard = `${config.shard.index}/${config.shard.total}`;
  if (config.failOnFlaky) run.failOnFlaky = true;
  return run;
}
