import { expect, test } from '@playwright/test';
import { ESLint } from 'eslint';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The folder graph of docs/ARCHITECTURE.md is enforced by eslint.config.js; these probes show that the rules
// really fire: a wrong-way import and a file cycle, written into the tree for a moment and linted.
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
const CYCLE_PROBES: Record<string, string> = {
  'src/zzCycleProbeA.ts': "import { b } from './zzCycleProbeB.js';\nexport const a = (): number => b() + 1;\n",
  'src/zzCycleProbeB.ts': "import { a } from './zzCycleProbeA.js';\nexport const b = (): number => a();\n",
};

async function lintProbes(files: Record<string, string>): Promise<Map<string, string[]>> {
  const paths = Object.keys(files).map((relative) => join(root, relative));
  try {
    for (const [relative, text] of Object.entries(files)) writeFileSync(join(root, relative), text);
    // Only the import rules, which need no type information: the probes are parsed without the type-aware program
    // (several seconds of CPU), under the project's own configuration otherwise.
    const eslint = new ESLint({
      cwd: root,
      ruleFilter: ({ ruleId }) => ruleId.startsWith('import-x/'),
      overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
    });
    const results = await eslint.lintFiles(paths);
    return new Map(results.map((result) => [result.filePath.slice(root.length), result.messages.map((m) => `${m.ruleId ?? ''}: ${m.message}`)]));
  } finally {
    for (const path of paths) rmSync(path, { force: true });
  }
}

// Both probe sets are linted in one pass (the import resolver reads the tree once), shared by the two tests, which
// therefore run in one worker, in order.
test.describe.configure({ mode: 'default' });
let linted: Promise<Map<string, string[]>> | undefined;
const lintedProbes = (): Promise<Map<string, string[]>> => (linted ??= lintProbes({ ...BOUNDARY_PROBES, ...CYCLE_PROBES }));
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
  for (const [file, messages] of found) expect(messages.join('\n'), file).toContain('import-x/no-cycle');
});
