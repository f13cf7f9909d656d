import { expect, test } from './helpers/test.js';
import { readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pruneCompileCache } from '../typescriptHooks.mjs';
import { scratchDir } from './helpers/scratchDir.js';

// The tests' compile cache (node_modules/.cache/contract-gate-tests) gains an entry at every edit of a file.
test('the compile cache is pruned once it holds more than its bound: the entries written first go, down to what is kept', () => {
  const dir = scratchDir('contract-gate-compile-cache');
  const now = Date.now() / 1000;
  // Written in a shuffled order, so that the names and the creation order say nothing of the age.
  for (const index of [7, 2, 11, 0, 5, 9, 1, 10, 3, 8, 4, 6]) {
    const file = join(dir, `${(index * 7919).toString(16).padStart(8, '0')}.js`);
    writeFileSync(file, `// entry ${index}`);
    utimesSync(file, now - 1_000 + index, now - 1_000 + index);
  }
  expect(pruneCompileCache(dir, 12, 6), 'at the bound: nothing goes').toBe(0);
  expect(pruneCompileCache(dir, 10, 6)).toBe(6);
  const left = readdirSync(dir).map((name) => Number.parseInt(name, 16) / 7919).sort((a, b) => a - b);
  expect(left, 'the six written last stay').toEqual([6, 7, 8, 9, 10, 11]);
  expect(pruneCompileCache(join(dir, 'missing'))).toBe(0);
});
