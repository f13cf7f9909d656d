import { cellKey, type Cell, type FaultCase } from './faultExpectations.js';

const BROWSER_CHECK = 'scenario.browser-remote-lane';
export const CHROMIUM_INSTALL = 'apt-get install -y chromium';
/** The type of the test annotation that says what was dropped. */
export const BROWSER_LANE_ANNOTATION = 'browser lane dropped';

/** What the self-test expects of the browser lane on this machine. */
export interface BrowserLaneDrop {
  /** The cells of a case that must fail here: without Chromium, none of the browser lane's. */
  expected(faultCase: FaultCase): Cell[];
  /** What was dropped from these cases and why, with how to get Chromium; undefined when nothing was. */
  notice(cases: readonly FaultCase[]): string | undefined;
}

/**
 * The browser lane drives the system Chromium and never downloads one: without it its cells are n/a, so outside CI
 * the self-test expects none of them to fail, and says so. Under CI Chromium is a prerequisite (.ci/run installs it).
 */
export function browserLaneDrop(chromiumPath: string, present: boolean): BrowserLaneDrop {
  const expected = (faultCase: FaultCase): Cell[] => (present ? [...faultCase.failing] : faultCase.failing.filter((cell) => cell.check !== BROWSER_CHECK));
  return {
    expected,
    notice(cases) {
      const shrunk = cases.filter((faultCase) => expected(faultCase).length < faultCase.failing.length);
      if (shrunk.length === 0) return undefined;
      const faultsOf = new Map<string, string[]>();
      for (const faultCase of shrunk) {
        for (const cell of faultCase.failing.filter((each) => each.check === BROWSER_CHECK)) faultsOf.set(cellKey(cell), [...(faultsOf.get(cellKey(cell)) ?? []), faultCase.fault]);
      }
      const count = [...faultsOf.values()].reduce((sum, faults) => sum + faults.length, 0);
      const dropped = [...faultsOf].map(([key, faults]) => `${key} of ${faults.join(', ')}`).join('; ');
      const unproven = shrunk.filter((faultCase) => expected(faultCase).length === 0).map((faultCase) => faultCase.fault);
      return [
        `self-test: no Chromium at ${chromiumPath}, so the browser lane is n/a and ${count} expected failing cell${count === 1 ? ' is' : 's are'} dropped (${dropped}).`,
        ...(unproven.length > 0 ? [`Nothing proves ${unproven.join(', ')} on this run.`] : []),
        `Install Chromium to prove the browser lane too: ${CHROMIUM_INSTALL} (under CI, CI=true, a missing Chromium fails the self-test).`,
      ].join(' ');
    },
  };
}
