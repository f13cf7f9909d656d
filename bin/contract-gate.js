#!/usr/bin/env node
// The CLI runs the compiled package, bundled (dist/cli/bundle/: scripts/bundleCli.mjs); `npm run build` produces it
// (npm ci and npm pack run it through "prepare").
import { fileURLToPath } from 'node:url';

const main = new URL('../dist/cli/bundle/main.js', import.meta.url);
// The import says whether the package is built: only the entry itself missing is "not built" (a dependency missing
// from node_modules is an error of its own, shown as it is).
let run;
try {
  ({ main: run } = await import(main.href));
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).startsWith(`Cannot find module '${fileURLToPath(main)}'`)) throw error;
  process.stderr.write('contract-gate: the package is not built (no dist/cli/bundle/main.js): run `npm run build` in its folder\n');
  process.exit(2);
}
process.exitCode = await run(process.argv.slice(2));

// The command has ended and written everything. A handle something left open (a socket still closing, a timer) must
// not keep a CI job waiting: the event loop gets a short grace to drain, then the process ends with its exit code and
// says what was still open.
const EXIT_GRACE_MS = 3_000;
setTimeout(() => {
  // What keeps the loop alive (this timer is unref'd: never listed), less the process's own standard streams.
  const open = process.getActiveResourcesInfo();
  const handles = process._getActiveHandles();
  for (const stream of [process.stdin, process.stdout, process.stderr]) {
    const own = handles.includes(stream) ? open.indexOf(`${stream._handle?.constructor?.name}Wrap`) : -1;
    if (own >= 0) open.splice(own, 1);
  }
  process.stderr.write(`contract-gate: the command ended, but ${[...new Set(open)].join(', ') || 'a pending operation'} stayed open ${EXIT_GRACE_MS / 1000} s later; exiting\n`);
  process.exit();
}, EXIT_GRACE_MS).unref();
