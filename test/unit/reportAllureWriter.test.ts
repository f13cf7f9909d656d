import { appendFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from './helpers/test.js';
import { type AllureCell, AllureResultsWriter } from '../../src/report/allureResults.js';
import { scratchDir } from './helpers/scratchDir.js';

/*
 * The engine's Allure results are written as the cells end, while the run goes on, not all at once after it: a cell
 * without files of its own is on disk before the run asks for the rest; a cell with a transcript waits until then,
 * so that the copy has the whole transcript.
 */

const PARAMETERS = [{ name: 'seed', value: '7' }];

function cell(index: number, extra: Partial<AllureCell> = {}): AllureCell {
  return { title: `m${index} › params.valid-accepted`, tags: [`@method:m${index}`, '@check:params.valid-accepted'], status: 'pass', detail: undefined, message: undefined, start: 1, stop: 2, transcriptPath: undefined, attachmentPaths: [], suite: 'methods', ...extra };
}

const results = (dir: string): Array<{ name: string; attachments: Array<{ source: string }> }> =>
  readdirSync(dir)
    .filter((name) => name.endsWith('-result.json'))
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as { name: string; attachments: Array<{ source: string }> });

/** Result files present (some may still be being written). */
const resultFiles = (dir: string): string[] => readdirSync(dir).filter((name) => name.endsWith('-result.json'));

async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; waited < 200 && !condition(); waited++) await sleep(10);
}

test('each result is written as its cell is added, before done; every cell has its file once done resolves', async () => {
  const dir = join(scratchDir('allure-writer'), 'allure-results');
  const writer = new AllureResultsWriter(dir, PARAMETERS);
  for (let index = 0; index < 150; index++) writer.add(cell(index));
  await until(() => resultFiles(dir).length === 150);
  expect(resultFiles(dir), 'written while the run goes on').toHaveLength(150);
  await writer.done();
  expect(results(dir).map((result) => result.name).sort()).toEqual(Array.from({ length: 150 }, (_, index) => cell(index).title).sort());
});

test('a cell with a transcript is written at done, with the transcript as it is then', async () => {
  const root = scratchDir('allure-writer');
  const dir = join(root, 'allure-results');
  const transcript = join(root, 'transcript.txt');
  writeFileSync(transcript, '-> first frame\n');
  const writer = new AllureResultsWriter(dir, PARAMETERS);
  writer.add(cell(1, { status: 'fail', message: 'broke', transcriptPath: transcript }));
  writer.add(cell(2));
  await until(() => resultFiles(dir).length === 1);
  appendFileSync(transcript, '<- last frame\n');
  await sleep(50);
  expect(resultFiles(dir), 'the cell with a transcript waits for done').toHaveLength(1);
  expect(results(dir).map((result) => result.name)).toEqual([cell(2).title]);
  await writer.done();
  const failed = results(dir).find((result) => result.name === cell(1).title);
  expect(readFileSync(join(dir, failed?.attachments[0]?.source ?? 'missing'), 'utf8')).toBe('-> first frame\n<- last frame\n');
});

test('a write that fails makes done reject, after the other writes have ended', async () => {
  const dir = join(scratchDir('allure-writer'), 'allure-results');
  const writer = new AllureResultsWriter(dir, PARAMETERS);
  rmSync(dir, { recursive: true });
  for (let index = 0; index < 3; index++) writer.add(cell(index));
  await expect(writer.done()).rejects.toThrow(/ENOENT/);
});
