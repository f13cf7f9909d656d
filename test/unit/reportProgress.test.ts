import { expect, test } from './helpers/test.js';
import type { FullConfig, FullResult, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import ProgressReporter, { formatElapsed } from '../../reporters/progress.js';

type Status = TestResult['status'];

/** Just enough of Playwright's TestCase for the reporter; results are appended as attempts end. */
function fakeTest(title: string, tags: string[], expectedStatus: Status = 'passed', retries = 0) {
  const results: TestResult[] = [];
  const test = {
    title,
    tags,
    expectedStatus,
    retries,
    annotations: [],
    results,
    titlePath: () => ['', 'suite.spec.ts', title],
    outcome: () => {
      const last = results.at(-1);
      if (!last || last.status === 'skipped') return 'skipped';
      if (last.status !== expectedStatus) return 'unexpected';
      return results.some((r) => r.status !== expectedStatus) ? 'flaky' : 'expected';
    },
  };
  return test as unknown as TestCase & { results: TestResult[] };
}

function attempt(test: TestCase & { results: TestResult[] }, status: Status, message?: string): TestResult {
  const result = { status, retry: test.results.length, errors: message ? [{ message }] : [], annotations: [] } as unknown as TestResult;
  test.results.push(result);
  return result;
}

function capture() {
  let text = '';
  const stream = { write: (chunk: string) => ((text += chunk), true), columns: 60 } as unknown as NodeJS.WritableStream & { columns: number };
  return { stream, text: () => text };
}

function drive(reporter: ProgressReporter) {
  const ok = fakeTest('ok', ['@method:session.create', '@check:params.valid-accepted']);
  const broken = fakeTest('broken', ['@method:session.close', '@check:result.schema']);
  const flaky = fakeTest('flaky', ['@method:session.list', '@check:result.schema'], 'passed', 1);
  const unrun = fakeTest('never', ['@method:a', '@check:b']);
  reporter.onBegin({} as FullConfig, { allTests: () => [ok, broken, flaky, unrun] } as unknown as Suite);
  reporter.onTestEnd(ok, attempt(ok, 'passed'));
  reporter.onTestEnd(broken, attempt(broken, 'failed', 'Error: \u001b[31mresult.cwd missing\u001b[39m\n  at x'));
  reporter.onTestEnd(flaky, attempt(flaky, 'failed', 'Error: first'));
  reporter.onTestEnd(flaky, attempt(flaky, 'passed'));
  reporter.onEnd({ status: 'failed' } as FullResult);
}

test('CI output: one line per failure, a line per decile, the final counts, no terminal control codes', () => {
  const out = capture();
  drive(new ProgressReporter({ tty: false, stream: out.stream }));
  const lines = out.text().trimEnd().split('\n');
  expect(lines[0]).toBe('contract-gate: running 4 checks');
  expect(lines).toContain('FAIL session.close × result.schema: result.cwd missing');
  expect(lines.filter((line) => line.startsWith('progress '))).toEqual([
    expect.stringMatching(/^progress 25%: 1\/4 checks, 0 failing, [\d.]+s$/),
    expect.stringMatching(/^progress 50%: 2\/4 checks, 1 failing/),
    // A cell that passed only on a retry is flaky, and flaky fails the gate: it counts as failing.
    expect.stringMatching(/^progress 75%: 3\/4 checks, 2 failing/),
  ]);
  expect(lines.at(-1)).toMatch(/^contract-gate: 4 checks in [\d.]+s: 1 passed, 1 failed, 1 flaky, 1 did not run \(failed\)$/);
  expect(out.text()).not.toContain('\x1b');
});

test('TTY output: a live line redrawn in place, then the failures with their first error line', () => {
  const out = capture();
  drive(new ProgressReporter({ tty: true, stream: out.stream }));
  const text = out.text();
  expect(text).toContain('\r\x1b[2Kcontract-gate  0/4 checks · 0 failing · ');
  expect(text).toContain('\r\x1b[2Kcontract-gate  3/4 checks · 2 failing · ');
  expect(text).toContain('Failures (2):\n  ✗ session.close × result.schema\n      result.cwd missing\n');
  expect(text.trimEnd().split('\n').at(-1)).toMatch(/contract-gate: 4 checks in .*: 1 passed, 1 failed, 1 flaky, 1 did not run \(failed\)$/);
});

test('elapsed time reads as seconds, then minutes and seconds', () => {
  expect(formatElapsed(1234)).toBe('1.2s');
  expect(formatElapsed(62_000)).toBe('1m 02s');
});
