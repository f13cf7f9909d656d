import { expect, test } from './helpers/test.js';
import { browserShare } from '../../profiles/hermes/cells/sharedBrowser.js';

// The browser lane's Chromium is shared by the cells of a process that use it at once, and kept between them only
// while a holder asks (the self-test's shards); a CLI run launches and closes it around its one cell. Judged on a
// stand-in browser that counts its launches and closes.

class FakeBrowser {
  closed = false;
  constructor(readonly serial: number) {}
  async close(): Promise<void> {
    this.closed = true;
  }
}

function counting(fail: (serial: number) => boolean = () => false) {
  const launched: FakeBrowser[] = [];
  const share = browserShare(async () => {
    const browser = new FakeBrowser(launched.length + 1);
    launched.push(browser);
    if (fail(browser.serial)) throw new Error(`launch ${browser.serial} failed`);
    return browser;
  });
  return { share, launched };
}

test('users at the same time share one browser, closed when the last one releases it; the next user launches another', async () => {
  const { share, launched } = counting();
  const first = share.acquire();
  const second = share.acquire();
  const browser = await first.browser;
  expect(await second.browser).toBe(browser);
  await first.release();
  await first.release();
  expect(browser.closed, 'still used by the second (a second release of the first counts once)').toBe(false);
  await second.release();
  expect(browser.closed, 'closed after the last release').toBe(true);
  const third = share.acquire();
  expect((await third.browser).serial).toBe(2);
  await third.release();
  expect(launched.map((b) => [b.serial, b.closed])).toEqual([[1, true], [2, true]]);
});

test('a holder keeps it open between users, and it closes when the holder lets go after the last user', async () => {
  const { share, launched } = counting();
  const release = share.hold();
  expect(launched, 'a hold alone launches nothing').toHaveLength(0);
  const first = share.acquire();
  const browser = await first.browser;
  await first.release();
  expect(browser.closed, 'held between users').toBe(false);
  const second = share.acquire();
  expect(await second.browser).toBe(browser);
  await release();
  expect(browser.closed, 'the user still has it').toBe(false);
  await second.release();
  expect(browser.closed).toBe(true);
  expect(launched).toHaveLength(1);
});

test('a failed launch is not kept: the next user launches again', async () => {
  const { share, launched } = counting((serial) => serial === 1);
  const first = share.acquire();
  await expect(first.browser).rejects.toThrow('launch 1 failed');
  await first.release();
  const second = share.acquire();
  expect((await second.browser).serial).toBe(2);
  await second.release();
  expect(launched).toHaveLength(2);
});
