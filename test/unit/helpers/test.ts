// The harness's own tests use none of @playwright/test's browser fixtures (the browser tests launch Chromium
// themselves): the root test type spares every test the setup and teardown of its auto fixtures ("context
// configuration", "trace recording" and their options), each a step whose captured stack is mapped through source maps.
export { _baseTest as test, expect } from '@playwright/test';
