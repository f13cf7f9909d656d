import { expect, test } from './helpers/test.js';
import { browserLaneDrop } from '../selftest/browserLaneDrop.js';
import { cellKey, FAULT_CASES } from '../selftest/faultExpectations.js';

const BROWSER_CELL = 'topology × scenario.browser-remote-lane';
const WITH_BROWSER_CELL = ['topology.older-backend', 'topology.older-backend-drops-cwd', 'topology.browser-origin-refused'];
const keysOf = (faultCase: (typeof FAULT_CASES)[number], present: boolean) => browserLaneDrop('/nowhere/chromium', present).expected(faultCase).map(cellKey);

test('with Chromium the self-test expects every cell of every case and has nothing to say', () => {
  for (const faultCase of FAULT_CASES) expect(keysOf(faultCase, true), faultCase.fault).toEqual(faultCase.failing.map(cellKey));
  expect(browserLaneDrop('/usr/bin/chromium', true).notice(FAULT_CASES)).toBeUndefined();
});

test('without Chromium exactly the browser lane cells are dropped, and the notice names them, the unproven fault and the install command', () => {
  const withBrowser = FAULT_CASES.filter((faultCase) => faultCase.failing.map(cellKey).includes(BROWSER_CELL));
  expect(withBrowser.map((faultCase) => faultCase.fault)).toEqual(WITH_BROWSER_CELL);
  for (const faultCase of FAULT_CASES) {
    expect(keysOf(faultCase, false), faultCase.fault).toEqual(faultCase.failing.map(cellKey).filter((key) => key !== BROWSER_CELL));
  }
  const drop = browserLaneDrop('/nowhere/chromium', false);
  expect(drop.notice(FAULT_CASES)).toBe(
    'self-test: no Chromium at /nowhere/chromium, so the browser lane is n/a and 3 expected failing cells are dropped ' +
      `(${BROWSER_CELL} of ${WITH_BROWSER_CELL.join(', ')}). Nothing proves topology.browser-origin-refused on this run. ` +
      `Install Chromium to prove the browser lane too: apt-get install -y chromium (under CI, CI=true, a missing Chromium fails the self-test).`,
  );
  // A test whose cases lose nothing is not annotated.
  expect(drop.notice(FAULT_CASES.filter((faultCase) => !withBrowser.includes(faultCase)))).toBeUndefined();
  expect(drop.notice(withBrowser.slice(0, 1))).toBe(
    `self-test: no Chromium at /nowhere/chromium, so the browser lane is n/a and 1 expected failing cell is dropped (${BROWSER_CELL} of topology.older-backend). ` +
      `Install Chromium to prove the browser lane too: apt-get install -y chromium (under CI, CI=true, a missing Chromium fails the self-test).`,
  );
});
