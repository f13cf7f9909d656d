import { expect, test } from './helpers/test.js';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRunOptions, runConfigFor } from '../../cli/commands/run.js';
import { runInProcess } from '../../fixtures/inProcessRun.js';
import { caseArgs } from '../selftest/selfTestRun.js';
import { scratchDir } from './helpers/scratchDir.js';

/*
 * What a cell attaches (a failing browser lane's screenshot, the skew table) reaches the run engine's report as
 * files of the report folder: linked from the matrix (json, md, junit, html) and attached to the cell's Allure result.
 */

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

test('the run engine keeps what cells attach: a failing browser lane screenshot (beside the pages it read) and the skew table, in the matrix, the Markdown, JUnit and Allure', async () => {
  test.setTimeout(120_000);
  const reportDir = join(scratchDir('engine-attachments'), 'report');
  const args = caseArgs({ fault: 'topology.browser-origin-refused', failing: [] }, reportDir, '@method:topology(?=\\s|$)');
  const { matrix } = await runInProcess(await runConfigFor(parseRunOptions(args)), { fullReport: true });
  const cell = (check: string) => matrix.cells.find((candidate) => candidate.method === 'topology' && candidate.check === check);

  const lane = cell('scenario.browser-remote-lane');
  expect(lane?.status, lane?.detail).toBe('fail');
  // A failing lane says what it saw too: the pages it read (their frames went from Chromium, not the harness).
  expect(lane?.evidence?.answersJudged, 'pages read').toBeGreaterThan(0);
  // One screenshot per lane that broke a rule: under this fault every lane is refused.
  expect(lane?.attachments?.length).toBeGreaterThan(0);
  for (const file of lane?.attachments ?? []) expect(file).toMatch(/^attachments\/topology_scenario\.browser-remote-lane\/remote-lane-.+\.png$/);
  const screenshot = readFileSync(join(reportDir, lane?.attachments?.[0] ?? ''));
  expect(screenshot.subarray(0, 8).equals(PNG_SIGNATURE), 'a PNG').toBe(true);

  const skew = cell('skew.predicted-observed');
  expect(skew?.attachments).toEqual(['attachments/topology_skew.predicted-observed/predicted-vs-observed.md']);
  expect(readFileSync(join(reportDir, skew?.attachments?.[0] ?? ''), 'utf8')).toContain('|');

  const saved = JSON.parse(readFileSync(join(reportDir, 'matrix.json'), 'utf8')) as typeof matrix;
  expect(saved.cells.find((c) => c.check === 'scenario.browser-remote-lane')?.attachments).toEqual(lane?.attachments);
  expect(readFileSync(join(reportDir, 'matrix.md'), 'utf8')).toContain(`  - attachment: \`${lane?.attachments?.[0]}\``);
  expect(readFileSync(join(reportDir, 'junit.xml'), 'utf8')).toContain(`attachment: ${lane?.attachments?.[0]}`);
  expect(readFileSync(join(reportDir, 'matrix.html'), 'utf8')).toContain(`href="${lane?.attachments?.[0]}"`);

  const results = join(reportDir, 'allure-results');
  const allure = readdirSync(results)
    .filter((name) => name.endsWith('-result.json'))
    .map((name) => JSON.parse(readFileSync(join(results, name), 'utf8')) as { name: string; attachments: Array<{ name: string; source: string; type: string }> });
  const laneResult = allure.find((result) => result.name === 'topology › scenario.browser-remote-lane');
  const pngs = laneResult?.attachments.filter((attachment) => attachment.type === 'image/png') ?? [];
  expect(pngs.map((attachment) => attachment.name)).toEqual(lane?.attachments?.map((file) => file.split('/').at(-1)));
  const png = pngs.find((attachment) => lane?.attachments?.[0]?.endsWith(attachment.name));
  expect(readFileSync(join(results, png?.source ?? '')).equals(screenshot)).toBe(true);
  const skewResult = allure.find((result) => result.name === 'topology › skew.predicted-observed');
  expect(skewResult?.attachments.map((attachment) => [attachment.name, attachment.type])).toEqual([['predicted-vs-observed.md', 'text/markdown']]);
  expect(existsSync(join(results, skewResult?.attachments[0]?.source ?? 'none'))).toBe(true);
});
