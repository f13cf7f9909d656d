// Bundles the compiled command line (dist/cli/main.js) into dist/cli/bundle/: a process loads a handful of files
// instead of some three hundred modules of its own and of its dependencies, which is most of a short command's start
// (a one-method run: about a fifth less CPU). Each command stays a chunk of its own, loaded when it runs, so `--help`
// loads none of them. Beside the entry: the embedded gateway's host process, which the bundled `run` forks from the
// folder it runs in (gateway/host/hostedGateway.ts), and the matrix reporter that `merge` hands to Playwright
// (reporters/shardMerge.ts). Playwright and Allure stay where npm put them: they are loaded only when needed, and
// Playwright's own runner loads the unbundled suites and reporters of dist/.
//
// Run by `npm run build` and `prepare` after tsc: node scripts/bundleCli.mjs
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/cli/bundle`;
rmSync(outdir, { recursive: true, force: true });

await build({
  absWorkingDir: root,
  entryPoints: { main: 'dist/cli/main.js', gatewayHostProcess: 'dist/gateway/host/gatewayHostProcess.js', cachedGatewayHost: 'dist/profiles/hermes/cachedGatewayHost.js', conformanceMatrix: 'dist/reporters/conformanceMatrix.js' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  chunkNames: '[name]-[hash]',
  external: ['@playwright/test', 'playwright', 'playwright-core', 'allure', 'allure-js-commons', 'allure-playwright', 'tsx'],
  // Bundled CommonJS dependencies call require(); an ES module has none of its own.
  banner: { js: "import { createRequire as __contractGateRequire } from 'node:module'; const require = __contractGateRequire(import.meta.url);" },
  logLevel: 'warning',
});
