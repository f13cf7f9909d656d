// Adds up the harness's unit tests (Playwright JSON report) and the conformance cells (matrix.json) into one line.
import { existsSync, readFileSync } from 'node:fs';

const [lintStatus, typecheckStatus, testStatus] = process.argv.slice(2).map(Number);
let passed = 0;
let failed = 0;
let skipped = 0;

const unit = 'test-results/unit-results.json';
if (existsSync(unit)) {
  const { stats } = JSON.parse(readFileSync(unit, 'utf8'));
  passed += stats.expected + stats.flaky;
  failed += stats.unexpected;
  skipped += stats.skipped;
}
const matrix = 'test-results/contract-gate-report/matrix.json';
if (existsSync(matrix)) {
  const { summary } = JSON.parse(readFileSync(matrix, 'utf8'));
  passed += summary.pass + summary.knownFail;
  failed += summary.fail + summary.stale + summary.notRun;
  skipped += summary.na;
}
// The type check and the linter count as one test each.
if (lintStatus === 0) passed += 1; else failed += 1;
if (typecheckStatus === 0) passed += 1; else failed += 1;
if (testStatus !== 0 && failed === 0) failed += 1; // a step crashed before reporting
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
