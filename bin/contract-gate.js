#!/usr/bin/env node
// The CLI runs the compiled package, bundled into one CommonJS file (dist/cli/bundle/main.cjs: scripts/bundleCli.mjs)
// and loaded through V8's code cache (cli/codeCache.ts); `npm run build` produces it (npm ci and npm pack run it
// through "prepare").
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';

// A full run keeps about 100 MB alive and allocates gigabytes around it. V8 lets the heap grow to three or four times
// what a full collection left alive before it collects again, which put the peak of a run on the whole Hermes document
// at 260-310 MB; growing by half of it instead takes 40 MB off that peak (and 50-180 MB off a 2,000-method run) for
// 5-10% more CPU in full collections (docs/benchmarks.md). The servers (`proxy`, `serve`) keep V8's own growth: their
// heap stays small, and there each extra full collection is a pause of the traffic they relay or answer (the proxy's
// p99 and throughput measured worse with it). A setting of the user's own (`node --heap-growing-percent=N
// …/contract-gate.js`; NODE_OPTIONS cannot carry it) stands.
const HEAP_GROWING = '--heap-growing-percent';
const SERVERS = new Set(['proxy', 'serve']);
if (!SERVERS.has(process.argv[2] ?? '') && !process.execArgv.some((arg) => arg.replace(/_/g, '-').startsWith(HEAP_GROWING))) {
  setFlagsFromString(`${HEAP_GROWING}=50`);
}

const main = fileURLToPath(new URL('../dist/cli/bundle/main.cjs', import.meta.url));
// Only the bundle itself missing is "not built": a dependency missing from node_modules is an error of its own, shown
// as it is.
if (!existsSync(main)) {
  process.stderr.write('contract-gate: the package is not built (no dist/cli/bundle/main.cjs): run `npm run build` in its folder\n');
  process.exit(2);
}
// The command and whether the heap flag above is set compile different code: each has its code cache entry.
const command = process.argv[2] ?? '';
const variant = `${/^[a-z]+$/.test(command) ? command : '-'}${process.argv.includes('--help') || process.argv.includes('-h') ? ' help' : ''}${SERVERS.has(command) ? '' : ' growing'}`;
const { codeCacheDir, requireWithCodeCache } = await import('../dist/cli/codeCache.js');
const { exports: bundle, keep } = requireWithCodeCache(main, codeCacheDir(), variant);
bundle.setModuleImporter((specifier) => import(specifier));
const run = bundle.main;
process.exitCode = await run(process.argv.slice(2));
keep();

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
