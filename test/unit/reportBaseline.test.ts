import { expect, test } from './helpers/test.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baselineIndex, loadBaseline, parseBaseline } from '../../src/report/baseline.js';
import { HarnessError } from '../../core/index.js';
import { scratchDir } from './helpers/scratchDir.js';

const PATH = 'contracts/baselines/staging.json';

function errorOf(text: string): HarnessError {
  try {
    parseBaseline(text, PATH);
  } catch (error) {
    if (HarnessError.is(error)) return error;
    throw error;
  }
  throw new Error('expected parseBaseline to throw');
}

test('a valid baseline parses and indexes by method and check', () => {
  const entries = parseBaseline(
    JSON.stringify([
      { method: 'session.resume', check: 'result.schema', reason: 'GW-12 result misses cwd' },
      { method: 'session.create', check: 'params.unknown-key-rejected', reason: 'GW-7' },
    ]),
    PATH,
  );
  expect(entries).toHaveLength(2);
  const index = baselineIndex(entries);
  expect(index.lookup('session.resume', 'result.schema')?.reason).toBe('GW-12 result misses cwd');
  expect(index.lookup('session.resume', 'params.valid-accepted')).toBeUndefined();
  expect(index.lookup('session.create', 'result.schema')).toBeUndefined();
  expect(parseBaseline('[]', PATH)).toEqual([]);
});

test('every malformed baseline names the file, the entry index and the fix', () => {
  const cases: Array<[string, RegExp]> = [
    ['{"method":', /not valid JSON/],
    ['{"entries": []}', /expected a JSON array .* got an? object/],
    ['[{"method":"a","check":"result.schema","reason":"r"}, 3]', /entry 1 must be an object/],
    ['[{"method":"a","check":"result.schema"}]', /entry 0: "reason" must be a non-empty string, got nothing/],
    ['[{"method":"","check":"result.schema","reason":"r"}]', /entry 0: "method" must be a non-empty string/],
    ['[{"method":"a","check":"result.schema","reason":"r","methd":"b"}]', /entry 0 has unknown key\(s\) "methd"/],
    ['[{"method":"a","check":"result.shape","reason":"r"}]', /entry 0: "result.shape" is not a check id/],
    ['[{"method":"a","check":"result.schema","reason":"r"},{"method":"a","check":"result.schema","reason":"s"}]', /entry 1 repeats entry 0/],
  ];
  for (const [text, pattern] of cases) {
    const error = errorOf(text);
    expect(error.code, text).toBe('BASELINE_INVALID');
    expect(error.message, text).toContain(PATH);
    expect(error.message, text).toMatch(pattern);
  }
});

test('a --baseline file that cannot be read is a usage error naming it, not an unexpected error', () => {
  const dir = scratchDir('contract-gate-baseline');
  const errorFor = (path: string): HarnessError => {
    try {
      loadBaseline(path);
    } catch (error) {
      if (HarnessError.is(error)) return error;
      throw error;
    }
    throw new Error('expected loadBaseline to throw');
  };
  const missing = errorFor(join(dir, 'no-such-baseline.json'));
  expect(missing.code).toBe('USAGE');
  expect(missing.message).toBe(`[USAGE] --baseline ${join(dir, 'no-such-baseline.json')}: no such file; pass the JSON file of known failures [{ "method", "check", "reason" }]`);
  expect(errorFor(dir).message).toMatch(/^\[USAGE\] --baseline .*: cannot be read \(EISDIR/);
  writeFileSync(join(dir, 'baseline.json'), '[{"method":"a","check":"result.schema","reason":"r"}]');
  expect(loadBaseline(join(dir, 'baseline.json'))).toEqual([{ method: 'a', check: 'result.schema', reason: 'r' }]);
});
