// Writes validator-seed/: the validators a default run of the Hermes profile's documents compiles (the full document,
// which `contract-gate run` uses by default, and the session-lifecycle one), packed into one file of code and its
// index. An installed package reads it where the user's validator cache misses, so that a machine's first run loads
// them instead of compiling them (core/validatorCache.ts, docs/benchmarks.md). The entries are keyed as the cache's
// are: by ajv's version, the cache format, the options, the document and the schema.
//
// Run by `prepack` (npm pack, npm publish) after the build: node scripts/packValidatorSeed.mjs
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packValidatorSeed } from '../dist/core/validatorCache.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'contract-gate-seed-'));
const cacheDir = join(work, 'cache');
const documents = [[], ['--contract', 'profiles/hermes/contracts/session-lifecycle.openrpc.json']];
try {
  for (const [index, args] of documents.entries()) {
    const run = spawnSync(process.execPath, ['bin/contract-gate.js', 'run', '--seed', '1', '--report-dir', join(work, `report-${index}`), ...args], {
      cwd: root,
      // A seed of an earlier pack must not stand in for compiling: every validator the run needs is written.
      env: { ...process.env, CONTRACT_GATE_CACHE_DIR: cacheDir, CONTRACT_GATE_SEED_DIR: join(work, 'no-seed'), CONTRACT_GATE_CACHE: '' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    // A failing check (exit 1, say the browser lane on a machine without Chromium) compiles the same validators.
    if (run.status !== 0 && run.status !== 1) throw new Error(`contract-gate run ${args.join(' ')} exited ${run.status}: no seed written`);
  }
  const entries = packValidatorSeed(cacheDir, join(root, 'validator-seed'));
  process.stdout.write(`validator-seed/: ${entries} validators\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
