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

/**
 * `expect(actual, message).toMatchObject(expected)`: each expected field present and strictly equal implies it (a
 * field expected `undefined` must still be there); where not, `toMatchObject` decides.
 */
export function expectFields(actual: unknown, expected: Readonly<Record<string, unknown>>, message?: string): void {
  const record = typeof actual === 'object' && actual !== null ? (actual as Record<string, unknown>) : undefined;
  if (record === undefined || Object.entries(expected).some(([key, value]) => !(key in record) || !isDeepStrictEqual(record[key], value))) expect(actual, message).toMatchObject(expected);
}

/** `expect(list, message).toContain(item)`, which finds the item by `indexOf` (strict equality: never NaN). */
export function expectContains(list: readonly unknown[], item: unknown, message?: string): void {
  if (list.indexOf(item) === -1) expect(list, message).toContain(item);
}

/** `expect.soft(actual, message).toBe(expected)`: the test goes on after a failure, which it records. */
export function softIs(actual: unknown, expected: unknown, message?: string): void {
  if (!Object.is(actual, expected)) expect.soft(actual, message).toBe(expected);
}

/** `expect.soft(actual, message).toEqual(expected)`. */
export function softEqual(actual: unknown, expected: unknown, message?: string): void {
  if (!isDeepStrictEqual(actual, expected)) expect.soft(actual, message).toEqual(expected);
}
