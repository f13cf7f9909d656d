import type { Browser } from '@playwright/test';

/** Where the browser lane finds Chromium: the system's, never a downloaded one. */
export const CHROMIUM_PATH = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  // A page answered by the browser itself (gated mode) has no address space: let it reach a loopback gateway.
  '--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessChecks',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

interface Shared {
  readonly browser: Promise<Browser>;
  users: number;
}

/** The one Chromium of this process while a cell uses it or a holder keeps it; each user works in contexts of its own. */
let shared: Shared | undefined;
/** Holders that keep the Chromium open between its users (`holdSharedBrowser`). */
let holds = 0;

async function launch(): Promise<Browser> {
  // Loaded when a browser is first needed: Playwright costs about 0.4 s of CPU to load, which a run whose selection
  // has no browser cell, and every other command that loads the profile, need not pay.
  const { chromium } = await import('@playwright/test');
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

async function closeIfUnused(entry: Shared): Promise<void> {
  if (entry.users > 0 || holds > 0) return;
  if (shared === entry) shared = undefined;
  await entry.browser.then((browser) => browser.close(), () => undefined);
}

/**
 * A share of the process's Chromium, launched if it is not running; `release` closes it once its last user is done
 * and nobody holds it. A CLI run uses it for one cell, so it launches and closes it as before; a process that makes
 * many runs (the self-test's in-process runs) holds it across them and pays for one launch.
 */
export function acquireBrowser(): { readonly browser: Promise<Browser>; release(): Promise<void> } {
  if (!shared) {
    const browser = launch();
    const entry: Shared = { browser, users: 0 };
    shared = entry;
    // A failed launch is not kept: the next user tries again.
    browser.catch(() => {
      if (shared === entry) shared = undefined;
    });
  }
  const entry = shared;
  entry.users++;
  let released = false;
  return {
    browser: entry.browser,
    async release() {
      if (released) return;
      released = true;
      entry.users--;
      await closeIfUnused(entry);
    },
  };
}

/** Keeps the shared Chromium open between its users until the returned function is called; it launches lazily. */
export function holdSharedBrowser(): () => Promise<void> {
  holds++;
  let done = false;
  return async () => {
    if (done) return;
    done = true;
    holds--;
    if (shared) await closeIfUnused(shared);
  };
}
