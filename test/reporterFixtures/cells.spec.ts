import { runConfigFromEnv } from '../../src/config/runConfigFile.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';

// One test per cell state the matrix knows; matrixReporter end-to-end tests assert on the result.
const cell = (method: string, check: string) => ({ tag: [`@method:${method}`, `@check:${check}`] });
const note = (type: string, description: string) => test.info().annotations.push({ type, description });

test('valid payload accepted', cell('session.create', 'params.valid-accepted'), () => {
  note('contract-gate.reached', 'session.create, session.list,not.a.subject');
});

test('valid payload rejected', cell('session.close', 'params.valid-accepted'), () => {
  // Like the fixtures: the transcript is written under the report folder and linked by its relative path.
  const reportDir = runConfigFromEnv()?.reportDir;
  if (reportDir) {
    mkdirSync(join(reportDir, 'transcripts'), { recursive: true });
    writeFileSync(join(reportDir, 'transcripts', 'session.close.jsonl'), '{"dir":"out","frame":{}}\n');
  }
  note('contract-gate.transcript-file', 'transcripts/session.close.jsonl');
  note('contract-gate.replay-file', 'replays/session.close.json');
  expect(4000, 'session.close rejected a contract-valid payload').toBe(0);
});

test('no open model', cell('session.create', 'params.unknown-key-tolerated'), () => {
  test.skip(true, 'every params object is closed');
});

test('known failure', cell('session.resume', 'result.schema'), () => {
  test.fail(true, 'baseline');
  note('contract-gate.baseline', 'GW-12 result misses cwd');
  expect('missing', 'result.cwd').toBe('present');
});

test('known failure that passes now', cell('session.resume', 'params.valid-accepted'), () => {
  test.fail(true, 'baseline');
  note('contract-gate.baseline', 'GW-9 resume rejected valid ids');
});

// Only this test retries: every failed attempt costs a fresh worker.
test.describe('retried', () => {
  test.describe.configure({ retries: 1 });
  test('passes on retry', cell('session.list', 'params.valid-accepted'), ({}, testInfo) => {
    expect(testInfo.retry, 'first attempt fails on purpose').toBe(1);
  });
});

test('shared cell, passing half', cell('prompt.submit', 'result.schema'), () => {});

test('shared cell, failing half', cell('prompt.submit', 'result.schema'), () => {
  note('contract-gate.detail', 'result.text must be string, got null');
  expect(null).not.toBeNull();
});

test('outside the matrix vocabulary', () => {});
