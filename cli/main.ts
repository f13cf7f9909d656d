import { Command, CommanderError } from 'commander';
import { HarnessError } from '../core/index.js';
import { registerCommands } from './commands/index.js';
import { EXIT } from './exitCodes.js';

/** Builds the `contract-gate` program; each command returns its exit code through `setExitCode`. */
export function buildProgram(setExitCode: (code: number) => void): Command {
  const program = new Command('contract-gate')
    .description('Contract conformance harness for JSON-RPC-over-WebSocket gateways described by OpenRPC.')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  registerCommands(program, setExitCode);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  let exitCode: number = EXIT.OK;
  const program = buildProgram((code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here with exit code 0; usage mistakes with 1 from commander, which we map to 2.
      return error.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
    }
    if (HarnessError.is(error)) {
      process.stderr.write(`contract-gate: ${error.message}\n`);
      return EXIT.USAGE;
    }
    process.stderr.write(`contract-gate: unexpected error: ${(error as Error).stack ?? String(error)}\n`);
    return EXIT.USAGE;
  }
}
