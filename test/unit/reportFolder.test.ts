import { expect, test } from './helpers/test.js';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clearEarlierReport, makeOutputFolder } from '../../cli/lib/reportFolder.js';
import { scratchDir } from './helpers/scratchDir.js';

/** A report folder as an earlier run or merge left it, with a file of the user's own beside it. */
function earlierReport(): string {
  const dir = scratchDir('contract-gate-report-folder-');
  for (const file of ['matrix.json', 'matrix.md', 'junit.xml']) writeFileSync(join(dir, file), 'earlier');
  for (const folder of ['transcripts', 'blob', 'allure-results']) {
    mkdirSync(join(dir, folder));
    writeFileSync(join(dir, folder, 'a'), 'earlier');
  }
  writeFileSync(join(dir, 'notes.txt'), 'the user\'s');
  return dir;
}

test('clearEarlierReport removes what a run writes and nothing else; the Allure results go aside or away', () => {
  const run = earlierReport();
  clearEarlierReport(run, { allureResults: 'set-aside' });
  expect(readdirSync(run).sort()).toEqual(['notes.txt', 'test-output']);
  expect(readdirSync(join(run, 'test-output', 'allure-results-previous'))).toEqual(['a']);

  const merge = earlierReport();
  clearEarlierReport(merge, { allureResults: 'remove' });
  expect(readdirSync(merge)).toEqual(['notes.txt']);
});

test('clearEarlierReport keeps the merge\'s shards: the folder itself, or a generated entry that is or holds one', () => {
  const shard = earlierReport();
  clearEarlierReport(shard, { allureResults: 'remove', keep: [join(shard, '.')] });
  expect(existsSync(join(shard, 'matrix.json')), 'merging into a shard\'s own folder clears nothing').toBe(true);

  const parent = earlierReport();
  mkdirSync(join(parent, 'blob', 'shard-1'));
  clearEarlierReport(parent, { allureResults: 'remove', keep: [join(parent, 'blob', 'shard-1'), join(parent, 'transcripts')] });
  expect(readdirSync(parent).sort()).toEqual(['blob', 'notes.txt', 'transcripts']);
  expect(readdirSync(join(parent, 'blob')).sort()).toEqual(['a', 'shard-1']);
});

test('makeOutputFolder makes every missing level, and names the option and the cause when it cannot', () => {
  const root = scratchDir('contract-gate-output-folder-');
  expect(makeOutputFolder(join(root, 'a', 'b', 'c'), '--report-dir')).toBe(join(root, 'a', 'b', 'c'));
  expect(existsSync(join(root, 'a', 'b', 'c'))).toBe(true);
  expect(makeOutputFolder(join(root, 'a'), '--report-dir'), 'an existing folder is fine').toBe(join(root, 'a'));
  writeFileSync(join(root, 'file'), '');
  expect(() => makeOutputFolder(join(root, 'file'), '--report-dir')).toThrow(`[USAGE] --report-dir ${join(root, 'file')}: it is a file, not a folder`);
  expect(() => makeOutputFolder(join(root, 'file', 'x', 'y'), '--output')).toThrow(`[USAGE] --output ${join(root, 'file', 'x', 'y')}: ${join(root, 'file')} is not a folder`);
});
