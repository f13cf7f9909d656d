// Bundles the compiled command line (dist/cli/main.js) into dist/cli/bundle/main.cjs: a process loads one file
// instead of some three hundred modules of its own and of its dependencies, which is most of a short command's start
// (a one-method run: about a fifth less CPU), and with the code cache compiles none of it again (cli/codeCache.ts).
// Beside it: the embedded gateway's host process, which the bundled `run` forks from the folder it runs in
// (gateway/host/hostedGateway.ts), and the matrix reporter that `merge` hands to Playwright (reporters/shardMerge.ts).
// Playwright and Allure stay where npm put them: they are loaded only when needed, and Playwright's own runner loads
// the unbundled suites and reporters of dist/.
//
// Run by `npm run build` and `prepare` after tsc: node scripts/bundleCli.mjs
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dynamicImportsIn } from '../dist/cli/codeCache.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/cli/bundle`;
rmSync(outdir, { recursive: true, force: true });

const shared = {
  absWorkingDir: root,
  outdir,
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  external: ['@playwright/test', 'playwright', 'playwright-core', 'allure', 'allure-js-commons', 'allure-playwright', 'tsx'],
  logLevel: 'warning',
};

// The command line: one CommonJS file, which cli/codeCache.ts loads through V8's code cache (a script can have one, an
// ES module cannot). Its commands are still initialised only when they run: esbuild turns their dynamic imports
// into lazily initialised parts of the file.
await build({
  ...shared,
  entryPoints: { main: 'dist/cli/main.js' },
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  define: { 'import.meta.url': '__contractGateModuleUrl' },
  banner: { js: "const __contractGateModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
});

// The entries other processes load: ES modules sharing their chunks.
await build({
  ...shared,
  entryPoints: { gatewayHostProcess: 'dist/gateway/host/gatewayHostProcess.js', cachedGatewayHost: 'dist/profiles/hermes/cachedGatewayHost.js', conformanceMatrix: 'dist/reporters/conformanceMatrix.js' },
  splitting: true,
  format: 'esm',
  chunkNames: '[name]-[hash]',
  // Bundled CommonJS dependencies call require(); an ES module has none of its own.
  banner: { js: "import { createRequire as __contractGateRequire } from 'node:module'; const require = __contractGateRequire(import.meta.url);" },
});

// A script compiled through the code cache cannot call import(): the one the command line may hold is importModule's
// own, which the entry replaces (core/importModule.ts).
const dynamicImports = dynamicImportsIn(readFileSync(`${outdir}/main.cjs`, 'utf8'));
if (dynamicImports !== 1) {
  process.stderr.write(`dist/cli/bundle/main.cjs holds ${dynamicImports} import() calls, not 1: import what lies outside the bundle through core/importModule.ts\n`);
  process.exit(1);
}
