import { expect, test } from '../unit/helpers/test.js';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../unit/helpers/cliRunner.js';
import { linkInstalledPackage, npmExec, packedTarball } from '../unit/helpers/packedPackage.js';
import { scratchDir } from '../unit/helpers/scratchDir.js';

// examples/user-checks as a user has it: its files in an empty folder, contract-gate installed from the packed
// tarball (with @playwright/test, its own devDependency, which contract-gate brings: the folder links to the install
// the newcomer test makes, and the link checks that it holds every dependency the example names), its spec run with
// `npx playwright test`. About 30 s.
test.setTimeout(240_000);

const EXAMPLE = join(REPO, 'examples', 'user-checks');
/** The native TypeScript compiler (7), which checks as the TypeScript users install today does. */
const TSC = join(REPO, 'node_modules', 'typescript-native', 'bin', 'tsc');

/** Beside the example, compiled but never run: it fails the type check unless contract-gate/test has real types. */
const TYPES_CHECK = `import { expect, test, type WireEvent } from 'contract-gate/test';

test('typed fixtures', async ({ gateway, contract, events }) => {
  const answer = await gateway.request<{ sessions: unknown[] }>('session.list', {});
  await expect(answer).toMatchResultOf('session.list');
  const event: WireEvent = await events.waitFor('session.info', { timeout: 10 });
  expect(contract.method('session.list')?.name).toBe(event.type);
  // @ts-expect-error no such matcher
  await expect(answer).toMatchResultOff('session.list');
  // @ts-expect-error the contract is a loaded document, not its path
  contract.toUpperCase();
});
`;

async function playwright(dir: string, project: string | undefined): Promise<{ code: number; output: string }> {
  const run = await npmExec(dir, ['playwright', 'test'], { CONTRACT_GATE_PROJECT: project, CONTRACT_GATE_CONFIG: undefined });
  return { code: run.code, output: run.stdout + run.stderr };
}

test('examples/user-checks from the packed tarball: its types resolve, it passes against the embedded gateway and fails with schema diffs against a faulty one', async () => {
  const tarball = await packedTarball();
  const dir = scratchDir('contract-gate-user-checks');
  for (const entry of ['playwright.config.ts', 'contract-gate.config.mjs', 'tsconfig.json', 'tests']) cpSync(join(EXAMPLE, entry), join(dir, entry), { recursive: true });
  const manifest = JSON.parse(readFileSync(join(EXAMPLE, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  manifest.devDependencies['contract-gate'] = `file:${tarball}`;
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(join(dir, 'typesCheck.ts'), TYPES_CHECK);
  await linkInstalledPackage(dir);

  const types = spawnSync(process.execPath, [TSC, '-p', join(dir, 'tsconfig.json')], { cwd: dir, encoding: 'utf8' });
  expect(types.status, types.stdout + types.stderr).toBe(0);

  const passing = await playwright(dir, undefined);
  expect(passing.code, passing.output).toBe(0);
  expect(passing.output).toContain('3 passed');

  const failing = await playwright(dir, 'faulty');
  expect(failing.code, failing.output).toBe(1);
  expect(failing.output).toContain('2 failed');
  expect(failing.output).toContain('1 passed');
  // The diffs: the failing pointer, the schema fragment expected there, the value received.
  expect(failing.output).toMatch(/the result of session\.undo does not match its schema in .*gateway\.openrpc\.json\):\n\s+at \/removed: must be integer\n\s+expected: \{"title":"Removed","type":"integer"\}\n\s+received: "2"/);
  expect(failing.output).toMatch(/the payload of event session\.resume_progress does not match its schema .*\n\s+at \/phase: must be string\n\s+expected: \{"title":"Phase","type":"string"\}\n\s+received: 1/);
});
