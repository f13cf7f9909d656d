import { expect } from '@playwright/test';
import { isDeepStrictEqual } from 'node:util';

/*
 * Playwright's `expect` records a step per call (a stack capture and a message to the test runner), which over the
 * hundreds of cases of a property run costs more than the property itself. These compare first and call `expect`
 * only when the plain comparison disagrees: a passing case costs a comparison, a failing one reports as `expect` does.
 */

/** `expect(actual, message).toBe(expected)`. */
export function expectIs(actual: unknown, expected: unknown, message?: string): void {
  if (!Object.is(actual, expected)) expect(actual, message).toBe(expected);
}

/** `expect(actual, message).toEqual(expected)`: strict deep equality implies it; where that fails, `toEqual` decides. */
export function expectEqual(actual: unknown, expected: unknown, message?: string): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual, message).toEqual(expected);
}
