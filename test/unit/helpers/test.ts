import { _baseTest } from '@playwright/test';
import { holdSharedBrowser } from '../../../profiles/hermes/cells/sharedBrowser.js';

// The harness's own tests use none of @playwright/test's browser fixtures (the browser tests launch Chromium
// themselves): the root test type spares every test the setup and teardown of its auto fixtures ("context
// configuration", "trace recording" and their options), each a step whose captured stack is mapped through source maps.
//
// One fixture of its own, for the worker: the browser lane's shared Chromium stays open from the first run that
// launches it in this worker to the worker's end, as the self-test holds it across its runs. Without the hold each
// in-process run of this worker launched and closed one (about a second of CPU each, a dozen launches per test run).
// It launches only when a run needs it.
export const test = _baseTest.extend<object, { sharedChromium: void }>({
  sharedChromium: [
    async ({}, use) => {
      const release = holdSharedBrowser();
      await use();
      await release();
    },
    { scope: 'worker', auto: true },
  ],
});
export { expect } from '@playwright/test';
