import { expect, test } from '@playwright/test';
import { existsSync } from 'node:fs';
import { acquireBrowser, CHROMIUM_PATH, holdSharedBrowser } from '../../profiles/hermes/cells/sharedBrowser.js';

// The browser lane's Chromium is shared by the cells of a process that use it at once, and kept between them only
// while a holder asks (the self-test's shards); a CLI run launches and closes it around its one cell.

test.describe.configure({ mode: 'default' });
// Under CI Chromium is a prerequisite (.ci/run installs it): there these tests fail without it rather than skip.
test.skip(!existsSync(CHROMIUM_PATH) && !process.env['CI'], `no Chromium at ${CHROMIUM_PATH}`);

test('users at the same time share one Chromium, closed when the last one releases it; the next user launches another', async () => {
  const first = acquireBrowser();
  const second = acquireBrowser();
  const browser = await first.browser;
  expect(await second.browser).toBe(browser);
  await first.release();
  await first.release();
  expect(browser.isConnected(), 'still used by the second').toBe(true);
  await second.release();
  expect(browser.isConnected(), 'closed after the last release').toBe(false);
  const third = acquireBrowser();
  try {
    const next = await third.browser;
    expect(next).not.toBe(browser);
    expect(next.isConnected()).toBe(true);
  } finally {
    await third.release();
  }
});

test('a holder keeps it open between users, and it closes when the holder lets go after the last user', async () => {
  const release = holdSharedBrowser();
  const first = acquireBrowser();
  const browser = await first.browser;
  await first.release();
  expect(browser.isConnected(), 'held between users').toBe(true);
  const second = acquireBrowser();
  expect(await second.browser).toBe(browser);
  await release();
  expect(browser.isConnected(), 'the user still has it').toBe(true);
  await second.release();
  expect(browser.isConnected()).toBe(false);
});
