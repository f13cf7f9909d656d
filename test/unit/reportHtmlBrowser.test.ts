import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from '@playwright/test';
import { expect, test } from './helpers/test.js';
import { acquireBrowser, type BrowserLease } from '../../profiles/hermes/cells/sharedBrowser.js';
import { buildMatrix, type TestRecord } from '../../src/report/matrixModel.js';
import { renderHtml } from '../../src/report/renderHtml.js';
import { removeScratchDirs, scratchDir } from '../reporterFixtures/runFixture.js';

// The worker's shared Chromium (helpers/test.ts holds it for the worker's life).
let lease: BrowserLease<Browser> | undefined;
let browser: Browser;
test.beforeAll(async () => {
  lease = acquireBrowser();
  browser = await lease.browser;
});
test.afterAll(async () => {
  await lease?.release();
});
test.afterEach(({}, testInfo) => {
  if (testInfo.status === testInfo.expectedStatus) removeScratchDirs();
});

function rec(method: string, check: string, kind: 'pass' | 'fail' | 'stale' | 'known' | 'skip', annotations: TestRecord['annotations'] = []): TestRecord {
  const base = { tags: [`@method:${method}`, `@check:${check}`], annotations, errors: [] as string[] };
  switch (kind) {
    case 'pass': return { ...base, outcome: 'expected', expectedStatus: 'passed', status: 'passed' };
    case 'fail': return { ...base, outcome: 'unexpected', expectedStatus: 'passed', status: 'failed', errors: [`Error: ${method} broke ${check}`] };
    case 'stale': return { ...base, outcome: 'unexpected', expectedStatus: 'failed', status: 'passed' };
    case 'known': return { ...base, outcome: 'expected', expectedStatus: 'failed', status: 'failed' };
    case 'skip': return { ...base, outcome: 'skipped', expectedStatus: 'skipped', status: 'skipped' };
  }
}

test('the HTML matrix filters to failures, filters by text and shows a cell detail on click', async () => {
  const dir = scratchDir();
  const methods = ['session.create', 'session.close', 'session.resume', 'session.list', 'prompt.submit'];
  const checks = ['params.valid-accepted', 'params.unknown-key-rejected', 'result.schema'];
  const records = methods.flatMap((method) => checks.map((check) => rec(method, check, 'pass')));
  records.push(
    rec('session.close', 'result.schema', 'fail', [{ type: 'contract-gate.transcript-file', description: 'transcripts/session.close.jsonl' }]),
    rec('prompt.submit', 'params.valid-accepted', 'fail'),
    rec('session.resume', 'result.schema', 'stale'),
    rec('session.list', 'result.schema', 'known'),
    rec('turn.started', 'event.envelope', 'skip'),
  );
  const matrix = buildMatrix(records, { target: 'reference gateway', contracts: [], seed: 5 }, '2026-01-01T00:00:00.000Z');
  mkdirSync(join(dir, 'transcripts'));
  writeFileSync(join(dir, 'transcripts', 'session.close.jsonl'), '{"dir":"out"}\n');
  writeFileSync(join(dir, 'matrix.html'), renderHtml(matrix));

  const page = await browser.newPage();
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(pathToFileURL(join(dir, 'matrix.html')).href);
  const visible = page.locator('td[data-status]:visible');
  await expect(visible).toHaveCount(16);
  await expect(page.locator('#shown')).toHaveText('16 cells shown');

  await page.getByLabel('failures only').check();
  await expect(visible).toHaveCount(3);
  await expect(page.locator('td[data-status="fail"]:visible')).toHaveCount(2);
  await expect(page.locator('td[data-status="stale"]:visible')).toHaveCount(1);
  await expect(page.locator('tbody tr:visible')).toHaveCount(3);

  await page.getByLabel('filter').fill('prompt');
  await expect(visible).toHaveCount(1);
  await page.getByLabel('all').check();
  await expect(visible).toHaveCount(3);
  await page.getByLabel('filter').fill('');

  const failing = page.locator('td[data-method="session.close"][data-check="result.schema"]');
  await expect(failing).toHaveAttribute('title', 'session.close broke result.schema');
  await failing.click({ position: { x: 3, y: 3 } });
  await expect(page.locator('#detail')).toBeVisible();
  await expect(page.locator('#detail')).toContainText('Detail: session.close broke result.schema');
  await failing.getByRole('link', { name: 'log' }).click();
  await expect(page).toHaveURL(pathToFileURL(join(dir, 'transcripts', 'session.close.jsonl')).href);
  expect(requests.every((url) => url.startsWith('file://'))).toBe(true);
  await page.close();
});
