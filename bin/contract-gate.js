#!/usr/bin/env node
// The CLI runs the compiled package, bundled (dist/cli/bundle/: scripts/bundleCli.mjs); `npm run build` produces it
// (npm ci and npm pack run it through "prepare").
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = new URL('../dist/cli/bundle/main.js', import.meta.url);
if (!existsSync(fileURLToPath(main))) {
  process.stderr.write('contract-gate: the package is not built (no dist/cli/bundle/main.js): run `npm run build` in its folder\n');
  process.exit(2);
}
const { main: run } = await import(main.href);
process.exitCode = await run(process.argv.slice(2));
