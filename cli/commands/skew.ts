import { writeFile } from 'node:fs/promises';
import { loadContract } from '../../src/contracts/index.js';
import { HarnessError } from '../../core/index.js';
import { analyseSkew, analyseSkewMatrix, renderSkew, renderSkewMatrix, type SkewFormat, type SkewOptions } from '../../src/skew/index.js';
import { EXIT } from '../exitCodes.js';
import { resolveProfile } from '../../profiles/index.js';

interface SkewCommandOptions {
  client?: string;
  server?: string;
  matrix?: string[];
  format: SkewFormat;
  output?: string;
  byNameUnknown: 'rejected' | 'ignored';
}


async function write(text: string, output: string | undefined): Promise<void> {
  if (output === undefined) {
    process.stdout.write(text);
    return;
  }
  try {
    await writeFile(output, text, 'utf8');
  } catch (error) {
    throw new HarnessError('USAGE', `cannot write ${output} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); pass a writable --output path`, { cause: error });
  }
}

async function runSkew(options: SkewCommandOptions, setExitCode: (code: number) => void): Promise<void> {
  const pair = options.client !== undefined || options.server !== undefined;
  const analysis: SkewOptions = { unknownByNameParams: options.byNameUnknown };
  if (options.matrix !== undefined) {
    if (pair) throw new HarnessError('USAGE', 'skew takes either --client and --server, or --matrix, not both');
    if (options.matrix.length < 2) throw new HarnessError('USAGE', `skew --matrix needs at least two documents (got ${options.matrix.length}); list every version to compare`);
    const contracts = [];
    for (const path of options.matrix) contracts.push(await loadContract(path));
    const matrix = analyseSkewMatrix(contracts, { ...analysis, ...(contracts[0] ? { serverCodes: resolveProfile(undefined, contracts[0]).codes } : {}) });
    await write(renderSkewMatrix(matrix, options.format), options.output);
    setExitCode(matrix.breaking ? EXIT.FAILED : EXIT.OK);
    return;
  }
  if (options.client === undefined || options.server === undefined) {
    throw new HarnessError('USAGE', 'skew needs --client FILE and --server FILE (the client sends params, the server reads them), or --matrix FILE FILE…');
  }
  const client = await loadContract(options.client);
  const server = await loadContract(options.server);
  const report = analyseSkew(client, server, { ...analysis, serverCodes: resolveProfile(undefined, server).codes });
  await write(renderSkew(report, options.format), options.output);
  setExitCode(report.breaking ? EXIT.FAILED : EXIT.OK);
}

/** `contract-gate skew`: static, direction-aware compatibility of a client document with a server document. */
export async function skewAction(_positionals: string[], options: Record<string, unknown>): Promise<number> {
  let exitCode: number = EXIT.OK;
  await runSkew(options as unknown as SkewCommandOptions, (code) => {
    exitCode = code;
  });
  return exitCode;
}
