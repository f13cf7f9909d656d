import { expect, test } from '@playwright/test';
import { ESLint } from 'eslint';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// The folder graph of docs/ARCHITECTURE.md is enforced by eslint.config.js (folders) and .oxlintrc.json (file
// cycles); these probes show that the rules really fire: a wrong-way import and a file cycle. Nothing is written into
// the source tree, so a lint or type check of the tree may run beside this test: a boundary probe is linted as text
// under the path it would have, and the two files of the cycle (the rule reads both from disk) are written under
// .scratch/, which the lint ignores and the type check does not include, and linted there by oxlint under the
// project's rules without its ignore patterns.
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
const CYCLE_DIR = '.scratch/cycle-probes';
const CYCLE_PROBES: Record<string, string> = {
  [`${CYCLE_DIR}/zzCycleProbeA.ts`]: "import { b } from './zzCycleProbeB.js';\nexport const a = (): number => b() + 1;\n",
  [`${CYCLE_DIR}/zzCycleProbeB.ts`]: "import { a } from './zzCycleProbeA.js';\nexport const b = (): number => a();\n",
};

const OXLINT = join(dirname(createRequire(import.meta.url).resolve('oxlint/package.json')), 'bin', 'oxlint');

/** The project's oxlint rules on the given files, without its ignore patterns: each file with its rule ids. */
function oxlintFiles(paths: readonly string[]): Map<string, string[]> {
  const config = JSON.parse(readFileSync(join(root, '.oxlintrc.json'), 'utf8')) as Record<string, unknown>;
  delete config['ignorePatterns'];
  delete config['$schema'];
  const configPath = join(root, CYCLE_DIR, 'oxlintrc.json');
  writeFileSync(configPath, JSON.stringify(config));
  const run = spawnSync(process.execPath, [OXLINT, '-c', configPath, '-f', 'json', ...paths], { cwd: root, encoding: 'utf8' });
  const { diagnostics } = JSON.parse(run.stdout) as { diagnostics: Array<{ code: string; filename: string }> };
  const found = new Map<string, string[]>(paths.map((path) => [relative(root, path), []]));
  for (const { code, filename } of diagnostics) found.get(relative(root, join(root, filename)))?.push(code);
  return found;
}

async function lintProbes(boundary: Record<string, string>, cycle: Record<string, string>): Promise<Map<string, string[]>> {
  // Only the import rules: the probes are parsed under the project's own configuration.
  const options = { cwd: root, ruleFilter: ({ ruleId }: { ruleId: string }) => ruleId.startsWith('import-x/') };
  const messages = (results: ESLint.LintResult[]): Array<[string, string[]]> =>
    results.map((result) => [relative(root, result.filePath), result.messages.map((m) => `${m.ruleId ?? ''}: ${m.message}`)]);
  const eslint = new ESLint(options);
  const found = new Map<string, string[]>();
  for (const [path, text] of Object.entries(boundary)) for (const [file, lines] of messages(await eslint.lintText(text, { filePath: join(root, path) }))) found.set(file, lines);
  const paths = Object.keys(cycle).map((path) => join(root, path));
  try {
    mkdirSync(join(root, CYCLE_DIR), { recursive: true });
    for (const [path, text] of Object.entries(cycle)) writeFileSync(join(root, path), text);
    for (const [file, codes] of oxlintFiles(paths)) found.set(file, codes);
  } finally {
    rmSync(join(root, CYCLE_DIR), { recursive: true, force: true });
  }
  return found;
}

// Both probe sets are linted in one pass (the import resolver reads the tree once), shared by the two tests, which
// therefore run in one worker, in order.
test.describe.configure({ mode: 'default' });
let linted: Promise<Map<string, string[]>> | undefined;
const lintedProbes = (): Promise<Map<string, string[]>> => (linted ??= lintProbes(BOUNDARY_PROBES, CYCLE_PROBES));
const messagesOf = async (files: Record<string, string>): Promise<Map<string, string[]>> => {
  const all = await lintedProbes();
  return new Map(Object.keys(files).map((relative) => [relative, all.get(relative) ?? []]));
};

test('a wrong-way import between folders fails the lint', async () => {
  test.setTimeout(120_000);
  const found = await messagesOf(BOUNDARY_PROBES);
  for (const [file, messages] of found) expect(messages.join('\n'), file).toContain('import-x/no-restricted-paths');
  expect(found.size).toBe(7);
});

test('a cycle between two files fails the lint', async () => {
  test.setTimeout(120_000);
  const found = await messagesOf(CYCLE_PROBES);
  expect(found.size).toBe(2);
  for (const [file, messages] of found) expect(messages.join('\n'), file).toContain('import(no-cycle)');
});
