import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keepScratch, SCRATCH_ROOT_VARIABLE } from './unit/helpers/scratchDir.js';

/**
 * Global setup of the harness's tests: one temporary folder for the whole run, named to the workers through the
 * environment (they inherit it), removed by the returned teardown once every worker has ended (kept with
 * CONTRACT_GATE_KEEP_SCRATCH=1).
 */
export default function scratchRootForTheRun(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'contract-gate-tests-'));
  process.env[SCRATCH_ROOT_VARIABLE] = root;
  return () => {
    if (keepScratch()) console.log(`temporary folders of the run kept in ${root}`);
    else rmSync(root, { recursive: true, force: true });
  };
}
