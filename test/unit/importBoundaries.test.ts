import { expect, test } from './helpers/test.js';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// The folder graph of docs/ARCHITECTURE.md is enforced by the lint (.oxlintrc.json: import-x's no-restricted-paths for
// the folders, import/no-cycle for the files); these probes show that the rules really fire: a wrong-way import and a
// file cycle. Nothing is written into the source tree, so a lint or type check of the tree may run beside this test:
// the probes are written under .scratch/, which the lint ignores and the type check does not include, and linted
// there under the project's rules without its ignore patterns. A boundary probe sits in a copy of the folder layout
// (the zones' base path moved there), beside a stand-in for the file it imports.
const root = fileURLToPath(new URL('../..', import.meta.url));

const BOUNDARY_PROBES: Record<string, string> = {
  'core/zzBoundaryProbe.ts': "import { Redactor } from '../src/client/redact.js';\nexport const probe = Redactor;\n",
  'src/checks/zzBoundaryProbe.ts': "import { RpcClient } from '../client/rpcClient.js';\nexport const probe = RpcClient;\n",
  'gateway/zzBoundaryProbe.ts': "import { isJsonObject } from '../core/json.js';\nexport const probe = isJsonObject;\n",
  'suites/zzBoundaryProbe.ts': "import { loadContractSync } from '../src/contracts/index.js';\nexport const probe = loadContractSync;\n",
  'src/run/zzBoundaryProbe.ts': "import { PROFILES } from '../../profiles/index.js';\nexport const probe = PROFILES;\n",
  'profiles/json-rpc/zzBoundaryProbe.ts': "import { HERMES_DIALECT } from '../hermes/dialect.js';\nexport const probe = HERMES_DIALECT;\n",
  'profiles/hermes/zzBoundaryProbe.ts': "import { runPlan } from '../../fixtures/runPlan.js';\nexport const probe = runPlan;\n",
};
const SCRATCH = '.scratch/lint-probes';
const LAYOUT = `${SCRATCH}/layout`;
const CYCLE_PROBES: Record<string, string> = {
  [`${SCRATCH}/zzCycleProbeA.ts`]: "import { b } from './zzCycleProbeB.js';\nexport const a = (): number => b() + 1;\n",
  [`${SCRATCH}/zzCycleProbeB.ts`]: "import { a } from './zzCycleProbeA.js';\nexport const b = (): number => a();\n",
};
const BOUNDARY_RULE = 'import-x-js/no-restricted-paths';

const OXLINT = join(dirname(createRequire(import.meta.url).resolve('oxlint/package.json')), 'bin', 'oxlint');

/** The project's lint configuration without its ignore patterns, the folder zones based in the probes' layout. */
function probeConfig(): Record<string, unknown> {
  // The configuration may hold comments: strip whole-line ones before parsing.
  const text = readFileSync(join(root, '.oxlintrc.json'), 'utf8').replace(/^\s*\/\/.*$/gm, '');
  const config = JSON.parse(text) as { rules: Record<string, [string, Record<string, unknown>]> } & Record<string, unknown>;
  delete config['ignorePatterns'];
  delete config['$schema'];
  const [level, options] = config.rules[BOUNDARY_RULE] ?? ['off', {}];
  config.rules[BOUNDARY_RULE] = [level, { ...options, basePath: join(root, LAYOUT) }];
  return config;
}

/** Each probe under the layout, and a stand-in exporting what it imports where its import resolves. */
function writeBoundaryProbes(): string[] {
  const paths: string[] = [];
  for (const [path, text] of Object.entries(BOUNDARY_PROBES)) {
    const probe = join(root, LAYOUT, path);
    const [, name, specifier] = /import \{ (\w+) \} from '([^']+)'/.exec(text) ?? [];
    if (name === undefined || specifier === undefined) throw new Error(`${path}: the probe must import one name`);
    const target = join(dirname(probe), specifier.replace(/\.js$/, '.ts'));
    for (const [file, content] of [[target, `export const ${name} = 1;\n`], [probe, text]] as const) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, content);
    }
    paths.push(probe);
  }
  return paths;
}

/** Every probe linted in one oxlint run: each probe (by its path in the tree, for boundary probes) with its diagnostics. */
function lintProbes(): Map<string, string[]> {
  const scratch = join(root, SCRATCH);
  try {
    mkdirSync(scratch, { recursive: true });
    const cycle = Object.entries(CYCLE_PROBES).map(([path, text]) => (writeFileSync(join(root, path), text), join(root, path)));
    const boundary = writeBoundaryProbes();
    const configPath = join(scratch, 'oxlintrc.json');
    writeFileSync(configPath, JSON.stringify(probeConfig()));
    const run = spawnSync(process.execPath, [OXLINT, '-c', configPath, '-f', 'json', ...cycle, ...boundary], { cwd: root, encoding: 'utf8' });
    const { diagnostics } = JSON.parse(run.stdout) as { diagnostics: Array<{ code: string; message: string; filename: string }> };
    const named = (path: string): string => relative(join(root, LAYOUT), path).startsWith('..') ? relative(root, path) : relative(join(root, LAYOUT), path);
    const found = new Map<string, string[]>([...cycle, ...boundary].map((path) => [named(path), []]));
    for (const { code, message, filename } of diagnostics) found.get(named(join(root, filename)))?.push(`${code}: ${message}`);
    return found;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

// Both probe sets are linted in one pass, shared by the two tests, which therefore run in one worker, in order.
test.describe.configure({ mode: 'default' });
let linted: Map<string, string[]> | undefined;
const messagesOf = (files: Record<string, string>): Map<string, string[]> => {
  linted ??= lintProbes();
  const all = linted;
  return new Map(Object.keys(files).map((path) => [path, all.get(path) ?? []]));
};

test('a wrong-way import between folders fails the lint', () => {
  const found = messagesOf(BOUNDARY_PROBES);
  expect(found.size).toBe(7);
  for (const [file, messages] of found) expect(messages.join('\n'), file).toContain('import-x-js(no-restricted-paths)');
});

test('a cycle between two files fails the lint', () => {
  const found = messagesOf(CYCLE_PROBES);
  expect(found.size).toBe(2);
  for (const [file, messages] of found) expect(messages.join('\n'), file).toContain('import(no-cycle)');
});
