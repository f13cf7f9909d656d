import { Command, CommanderError } from 'commander';
import { dropWritesOnceClosed } from '../core/closedOutput.js';
import { HarnessError } from '../core/harnessError.js';
import { COMMANDS, type CommandDeclaration } from './commands/index.js';
import { EXIT } from './exitCodes.js';
import { addTableOptions, givenOptions, withDefaults } from './lib/commanderOptions.js';
import { PACKAGE_VERSION } from './lib/repoPaths.js';

// The entry (bin/contract-gate.js) lends its import() to the bundle, which cannot use its own: core/importModule.ts.
export { setModuleImporter } from '../core/importModule.js';

function declare(program: Command, declaration: CommandDeclaration, setExitCode: (code: number) => void): void {
  const command = program.command(declaration.name).description(declaration.description);
  for (const argument of declaration.arguments ?? []) command.argument(argument.name, argument.description, argument.default);
  addTableOptions(command, declaration.name);
  const after = declaration.helpAfter;
  if (typeof after === 'string') command.addHelpText('after', after);
  else if (after) command.addHelpText('after', () => after());
  command.action(async (...args: unknown[]) => {
    const self = args.at(-1) as Command;
    const positionals = args.slice(0, -2).flat().map(String);
    // `run` merges the command line with its configuration file; the others fill in the table's defaults here.
    const options = declaration.name === 'run' ? givenOptions(self) : withDefaults(declaration.name, self.opts());
    const action = await declaration.load();
    setExitCode(await action(positionals, options));
  });
}

/** Builds the `contract-gate` program; each command returns its exit code through `setExitCode`. */
export function buildProgram(setExitCode: (code: number) => void): Command {
  const program = new Command('contract-gate')
    .description('Contract conformance harness for JSON-RPC-over-WebSocket gateways described by OpenRPC.')
    .version(PACKAGE_VERSION, '-V, --version', 'print the version of contract-gate')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  for (const declaration of COMMANDS) declare(program, declaration, setExitCode);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  // `contract-gate run | head`: a reader that stops early is not an error, and the command still ends with its own code.
  dropWritesOnceClosed(process.stdout);
  dropWritesOnceClosed(process.stderr);
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
