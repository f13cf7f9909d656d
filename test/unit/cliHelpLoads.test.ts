import { expect, test } from './helpers/test.js';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { REPO } from './helpers/cliRunner.js';

// `contract-gate --help` and `run --help` stay fast by loading no command module: what the compiled entry point
// imports statically (dynamic `import()` of a command is not followed) must not reach a validator, the gateway,
// Playwright or a contract. Read from dist/, as the CLI runs it (npm run build first).
const DIST = join(REPO, 'dist');
const IMPORT = /(?:^|\n)\s*(?:import|export)\s(?:[^'"]*?\sfrom\s*)?['"]([^'"]+)['"]/g;

/** Every file and package the module imports, transitively, without running it. */
function staticImports(entry: string): Set<string> {
  const reached = new Set<string>();
  const visit = (file: string): void => {
    if (reached.has(file)) return;
    reached.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      if (!specifier) continue;
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
      else reached.add(`package:${specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]}`);
    }
  };
  visit(entry);
  return new Set([...reached].map((path) => path.replace(`${DIST}/`, '')));
}

const HEAVY = ['package:ajv', 'package:ajv-formats', 'package:@playwright', 'package:ws', 'package:fast-check', 'package:json-schema-faker', 'gateway/index.js', 'src/contracts/loadContract.js', 'core/index.js'];

test('the CLI entry point loads the option table and commander, and no command module, validator, gateway or contract', () => {
  expect(existsSync(join(DIST, 'cli', 'main.js')), 'run `npm run build` first').toBe(true);
  const reached = staticImports(join(DIST, 'cli', 'main.js'));
  expect(reached.has('src/config/optionTable.js')).toBe(true);
  expect(reached.has('package:commander')).toBe(true);
  expect(HEAVY.filter((module) => reached.has(module))).toEqual([]);
  expect([...reached].filter((path) => /^cli\/commands\/(run|serve|replay|proxy|skew|merge|report|init)\.js$/.test(path))).toEqual([]);
  // The same walk does see the heavy modules where they are: behind the lazily imported command.
  const run = staticImports(join(DIST, 'cli', 'commands', 'run.js'));
  expect(HEAVY.filter((module) => run.has(module))).toEqual(expect.arrayContaining(['package:ajv', 'gateway/index.js', 'src/contracts/loadContract.js']));
});
