import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Temporary folders of the harness's tests. The unit config's global setup (test/scratchRoot.ts) makes one folder per
 * test run and names it in this variable; every test's folders go inside it, and the global teardown removes it, the
 * packed installs shared by the run's workers included. Without it (a file run under another config) folders go
 * straight under the system's temporary folder.
 */
export const SCRATCH_ROOT_VARIABLE = 'CONTRACT_GATE_TEST_SCRATCH';
/** Set to 1 to keep every temporary folder of a run (the path of each is in the failing test's output). */
export const KEEP_SCRATCH_VARIABLE = 'CONTRACT_GATE_KEEP_SCRATCH';

export function keepScratch(): boolean {
  return process.env[KEEP_SCRATCH_VARIABLE] === '1';
}

export function scratchRoot(): string {
  return process.env[SCRATCH_ROOT_VARIABLE] ?? tmpdir();
}

const made: string[] = [];
let cleanupRegistered = false;

/**
 * A new empty folder outside the repository (so that nothing in it resolves the repository's package.json,
 * configuration or node_modules), removed with everything in it when the worker process ends: a test that fails
 * half-way leaves nothing behind either, unless CONTRACT_GATE_KEEP_SCRATCH=1.
 */
export function scratchDir(prefix: string): string {
  if (!cleanupRegistered && !keepScratch()) {
    cleanupRegistered = true;
    process.once('exit', removeScratchDirs);
  }
  const dir = mkdtempSync(join(scratchRoot(), `${prefix}-`));
  made.push(dir);
  return dir;
}

function removeScratchDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
