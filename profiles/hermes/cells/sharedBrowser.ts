import type * as PlaywrightTest from '@playwright/test';
import type { Browser } from '@playwright/test';
import { importModule } from '../../../core/importModule.js';

/** Where the browser lane finds Chromium: the system's, never a downloaded one. */
export const CHROMIUM_PATH = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  // A page answered by the browser itself (gated mode) has no address space: let it reach a loopback gateway.
  '--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessChecks',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** What the share needs of a browser: that it can be closed. */
export interface Closable {
  close(): Promise<void>;
}

export interface BrowserLease<B> {
  readonly browser: Promise<B>;
  /** Gives the share back; the last user's release closes the browser unless someone holds it. */
  release(): Promise<void>;
}

export interface BrowserShare<B> {
  acquire(): BrowserLease<B>;
  /** Keeps the browser open between its users until the returned function is called; it launches lazily. */
  hold(): () => Promise<void>;
}

/**
 * One browser for the users of a process that need it at the same time: launched by the first, closed after the last
 * unless a holder keeps it for the next ones. Each user works in browser contexts of its own.
 */
export function browserShare<B extends Closable>(launch: () => Promise<B>): BrowserShare<B> {
  type Entry = { readonly browser: Promise<B>; users: number };
  let shared: Entry | undefined;
  let holds = 0;

  async function closeIfUnused(entry: Entry): Promise<void> {
    if (entry.users > 0 || holds > 0) return;
    if (shared === entry) shared = undefined;
    await entry.browser.then((browser) => browser.close(), () => undefined);
  }

  return {
    acquire() {
      if (!shared) {
        const entry: Entry = { browser: launch(), users: 0 };
        shared = entry;
        // A failed launch is not kept: the next user tries again.
        entry.browser.catch(() => {
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
    },
    hold() {
      holds++;
      let done = false;
      return async () => {
        if (done) return;
        done = true;
        holds--;
        if (shared) await closeIfUnused(shared);
      };
    },
  };
}

async function launchChromium(): Promise<Browser> {
  // Loaded when a browser is first needed: Playwright costs about 0.4 s of CPU to load, which a run whose selection
  // has no browser cell, and every other command that loads the profile, need not pay.
  const { chromium } = await importModule<typeof PlaywrightTest>('@playwright/test');
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/**
 * The process's Chromium for the browser lane. A CLI run uses it for one cell, so it launches and closes it around
 * that cell; a process that makes many runs (the self-test's in-process runs) holds it across them and pays for one
 * launch.
 */
const CHROMIUM = browserShare(launchChromium);
export const acquireBrowser = (): BrowserLease<Browser> => CHROMIUM.acquire();
export const holdSharedBrowser = (): (() => Promise<void>) => CHROMIUM.hold();
