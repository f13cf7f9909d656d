import { writeFile } from 'node:fs/promises';
import { Option, type Command } from 'commander';
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

const HELP_AFTER = `
Direction:
  The client is the side that SENDS params and reads results and events; the server reads params
  and sends results and events. The verdict is not symmetric: a newer client may break an older
  server while the newer server still serves the older client.

  Unlike OpenAPI diff tools, this is not an old-to-new document diff. oasdiff, for example, rates a
  new optional request field as INFO (non-breaking): true for a new server and old clients, but a
  new client that sends that field to an old server whose model is closed
  (additionalProperties: false) is rejected (with the server profile's own code and wording where it
  has one, elsewhere -32602). Run both directions, or --matrix.

Exit codes:
  0  nothing breaking (warnings and info findings do not fail)
  1  at least one breaking finding (for --matrix: in at least one client/server pair)
  2  usage error or invalid contract (missing file, not JSON, fails the OpenRPC meta-schema,
     dangling $ref); the reason is printed to stderr

Examples:
  contract-gate skew --client desktop-2.4.openrpc.json --server gateway-2.3.openrpc.json
  contract-gate skew --matrix old.openrpc.json new.openrpc.json --format md --output skew.md
`;

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
export function registerSkewCommand(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('skew')
    .description('Predict client/server version skew from two OpenRPC documents (which calls, results and events break)')
    .option('--client <file>', 'OpenRPC document of the client: the side that sends params (path or URL)')
    .option('--server <file>', 'OpenRPC document of the server: the side that reads params (path or URL)')
    .option('--matrix <files...>', 'compare every ordered pair of these documents (rows = client, columns = server)')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'md', 'json']).default('text'))
    .option('--output <file>', 'write the report to this file instead of stdout')
    .addOption(
      new Option('--by-name-unknown <policy>', 'what servers do with an undeclared by-name param (the document cannot say)')
        .choices(['rejected', 'ignored'])
        .default('rejected'),
    )
    .addHelpText('after', HELP_AFTER)
    .action(async (options: SkewCommandOptions) => runSkew(options, setExitCode));
}
