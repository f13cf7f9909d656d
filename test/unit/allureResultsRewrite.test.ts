import { expect, test } from './helpers/test.js';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALLURE_RESULTS_SET_ASIDE, setAsideAllureResults, writeAllureResults, type AllureCell } from '../../src/report/allureResults.js';
import { scratchDir } from './helpers/scratchDir.js';

/*
 * A run's Allure results are rewritten in place over the run before's (one file name per cell title), so that a report
 * folder used run after run does not pay for thousands of new files; the folder still ends with this run's results only.
 */

const PARAMETERS = [{ name: 'seed', value: '1' }];

const cell = (title: string, status: AllureCell['status'], transcriptPath?: string): AllureCell => ({
  title,
  tags: [],
  status,
  detail: undefined,
  message: status === 'fail' ? `${title} failed` : undefined,
  start: 0,
  stop: 1,
  transcriptPath,
  attachmentPaths: [],
  suite: 'methods',
});

interface Written {
  file: string;
  name: string;
  status: string;
  uuid: string;
  attachments: Array<{ name: string; source: string; type: string }>;
}

function resultsIn(dir: string): Written[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('-result.json'))
    .map((file) => ({ file, ...(JSON.parse(readFileSync(join(dir, file), 'utf8')) as Omit<Written, 'file'>) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

test('a second run rewrites the first run\'s result files in place, and the folder holds its results only', () => {
  const root = scratchDir('allure-rewrite');
  const dir = join(root, 'allure-results');
  const transcript = join(root, 'a.txt');
  writeFileSync(transcript, '>> {"id":1}\n');
  writeAllureResults(dir, [cell('m › a', 'fail', transcript), cell('m › b', 'pass'), cell('m › gone', 'pass')], PARAMETERS);
  const first = resultsIn(dir);
  expect(first.map((r) => r.name)).toEqual(['m › a', 'm › b', 'm › gone']);
  const failing = first[0] as Written;
  expect(failing.attachments).toEqual([{ name: 'rpc-transcript', source: expect.stringMatching(/-attachment\.txt$/), type: 'text/plain' }]);
  expect(readFileSync(join(dir, failing.attachments[0]?.source ?? ''), 'utf8')).toBe('>> {"id":1}\n');
  const inode = (file: string): number => statSync(join(dir, file)).ino;
  const inodes = new Map(first.map((r) => [r.name, inode(r.file)]));
  // Something no run of ours wrote.
  writeFileSync(join(dir, 'stray-result.json'), '{}');

  writeAllureResults(dir, [cell('m › a', 'pass'), cell('m › b', 'fail'), cell('m › new', 'pass')], PARAMETERS);
  const second = resultsIn(dir);
  expect(second.map((r) => [r.name, r.status])).toEqual([
    ['m › a', 'passed'],
    ['m › b', 'failed'],
    ['m › new', 'passed'],
  ]);
  for (const result of second.filter((r) => inodes.has(r.name))) {
    expect(inode(result.file), `${result.name}: the same file`).toBe(inodes.get(result.name));
    expect(result.file).toBe(first.find((r) => r.name === result.name)?.file);
  }
  // Each result is still one of its own: a fresh uuid per run.
  expect(second[0]?.uuid).not.toBe(failing.uuid);
  // The cell that left the run, its transcript (the cell passes now) and the stray file are gone.
  expect(readdirSync(dir).sort()).toEqual(second.map((r) => r.file).sort());
});

test('two cells of one title get a file each', () => {
  const dir = join(scratchDir('allure-same-title'), 'allure-results');
  writeAllureResults(dir, [cell('m › a', 'pass'), cell('m › a', 'fail')], PARAMETERS);
  expect(resultsIn(dir).map((r) => r.status).sort()).toEqual(['failed', 'passed']);
});

test('a run sets the results of the run before aside, and takes them back to rewrite them', () => {
  const reportDir = scratchDir('allure-set-aside');
  const results = join(reportDir, 'allure-results');
  const aside = join(reportDir, ALLURE_RESULTS_SET_ASIDE);
  writeAllureResults(results, [cell('m › a', 'pass')], PARAMETERS);
  const [before] = resultsIn(results);
  const inode = statSync(join(results, before?.file ?? '')).ino;

  setAsideAllureResults(reportDir);
  expect(existsSync(results), 'no result of the run before passes for one of this run').toBe(false);
  expect(aside.startsWith(join(reportDir, 'test-output')), 'with the working files the next run removes').toBe(true);
  writeAllureResults(results, [cell('m › a', 'fail')], PARAMETERS, aside);
  expect(statSync(join(results, before?.file ?? '')).ino, 'rewritten in place').toBe(inode);
  expect(resultsIn(results).map((r) => r.status)).toEqual(['failed']);
  expect(existsSync(aside)).toBe(false);

  // Set aside again over an earlier set-aside folder (a runner with results of its own left it): it is replaced.
  setAsideAllureResults(reportDir);
  mkdirSync(results);
  writeFileSync(join(results, 'x-result.json'), '{}');
  setAsideAllureResults(reportDir);
  expect(readdirSync(aside)).toEqual(['x-result.json']);
});
