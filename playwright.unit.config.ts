import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';
import { registerTypescriptHooks } from './test/typescriptHooks.mjs';

// The runner and every worker load this file before any test: the repository's TypeScript is compiled from here on by
// Sucrase (test/typescriptHooks.mjs) instead of Playwright's Babel transform.
registerTypescriptHooks();

/**
 * The harness's own tests: unit, property, gateway, reporter and CLI tests (`npm run test:unit`: test/unit/ and the
 * slowest of them in test/slow/), and every fault of the reference gateway against the harness (`npm run
 * test:selftest`, test/selftest/). Conformance suites live in suites/.
 */

/*
 * The tests that take the longest (packed installs, both runners, gated runs) live in test/slow/, between test/selftest/
 * and test/unit/: Playwright deals out a project's tests in file order, so the self-test's long tests start first, the
 * slow files next, and the short unit tests fill the workers at the end instead of one long test running on alone.
 * All three are one project, because a worker runs the tests of one project only: a worker that ends a self-test shard
 * goes on with a slow file, and then with unit tests, instead of a new worker starting for each project (a worker's
 * start and its first imports cost 1-3 s of CPU).
 */
/**
 * The files whose tests mostly wait (slow targets, turn and ticket timeouts, servers that go down and come back: a
 * tenth to a quarter of their wall time on a core, about 110 s of it in all): the project `waiting`, on one worker of
 * its own beside the BUSY_WORKERS that run everything else. On those they held a worker while the cores had work to
 * do, and when every worker waited at once the cores idled. (Harness tests alone, alternating with the four-worker
 * layout: 171.9 and 154.6 s before, 158.7 and 137.3 s after, the same CPU.)
 */
const WAITING_FILES = ['budgetSlowTarget', 'statefulRuns', 'statefulGatedReplay', 'targetDown', 'scenarioFaults', 'foreignServers', 'hooksScenarios'].map((name) => `unit/${name}.test.ts`);
/**
 * The library fixtures' own tests set worker options per file (test.use), so each file needs a worker of its own: as
 * a project listed first they start with the run, beside the self-test, instead of three fresh workers starting for
 * them once everything else has ended (within a project, Playwright deals out the tests of the common settings first
 * and those of other worker settings after them).
 */
const LIBRARY_FILES = ['libraryExternalTarget', 'libraryFixtures', 'libraryGatedFaulty'].map((name) => `unit/${name}.test.ts`);
const BUSY_WORKERS = process.env['CI'] ? 4 : Math.max(4, Math.floor(availableParallelism() / 2));

export default defineConfig({
  testDir: 'test',
  fullyParallel: true,
  forbidOnly: !!process.env['CI'],
  retries: 0,
  // Most tests wait on sockets, timers and child processes rather than compute. The self-test's three long tests
  // (mostly waiting too) take three workers from the start: a fourth runs the unit tests beside them. At least four
  // outside CI too (Playwright's default, half the cores, would run the self-test's long tests one after the other).
  // The waiting project's worker comes on top; the others are capped at BUSY_WORKERS per project.
  workers: BUSY_WORKERS + 1,
  timeout: 60_000,
  reporter: process.env['CI'] ? [['line'], ['json', { outputFile: 'test-results/unit-results.json' }]] : [['list']],
  outputDir: 'test-results/unit-artifacts',
  // One temporary folder for the run's tests (test/unit/helpers/scratchDir.ts), removed when the run ends.
  globalSetup: './test/scratchRoot.ts',
  // After the library files, the self-test's long tests are scheduled first (selftest/ sorts before slow/ and unit/),
  // so that the other tests fill the workers around them.
  projects: [
    { name: 'library', testMatch: LIBRARY_FILES },
    { name: 'waiting', testMatch: WAITING_FILES, workers: 1 },
    { name: 'unit', testMatch: ['selftest/**/*.test.ts', 'slow/**/*.test.ts', 'unit/**/*.test.ts'], testIgnore: [...LIBRARY_FILES, ...WAITING_FILES], workers: BUSY_WORKERS },
  ],
});
