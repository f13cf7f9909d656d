import { createHash, randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { AREA_TAG_PREFIX, CHECK_TAG_PREFIX, METHOD_TAG_PREFIX } from '../checks/tags.js';
import type { CellStatus } from './matrixTypes.js';

/**
 * Allure result files (`<uuid>-result.json`, Allure's documented result format) of a run made without
 * allure-playwright: the same labels the Playwright path gives a cell (epic = area, feature = subject, story =
 * check, its tags), the run's parameters, and the transcript as an attachment. `allure generate` reads them as it
 * reads allure-playwright's.
 */
export interface AllureCell {
  /** `subject › check`. */
  readonly title: string;
  readonly tags: readonly string[];
  readonly status: CellStatus;
  readonly detail: string | undefined;
  /** The failure message, when there is one. */
  readonly message: string | undefined;
  readonly start: number;
  readonly stop: number;
  /** Absolute path of the cell's transcript, attached when present. */
  readonly transcriptPath: string | undefined;
  /** Absolute paths of the files the cell attached (their names and types follow from the file names). */
  readonly attachmentPaths: readonly string[];
  /** The family (spec file) that declares the cell: the Allure suite. */
  readonly suite: string;
}

/** The content types of the files cells attach, by extension. */
const CONTENT_TYPES: Readonly<Record<string, string>> = { '.png': 'image/png', '.md': 'text/markdown', '.txt': 'text/plain', '.json': 'application/json', '.html': 'text/html' };

const md5 = (text: string): string => createHash('md5').update(text).digest('hex');

/** Allure's statuses: a failing check is `failed`; n/a and not-run cells are `skipped`. */
function allureStatus(status: CellStatus): string {
  if (status === 'fail' || status === 'stale' || status === 'flaky') return 'failed';
  if (status === 'n/a' || status === 'not-run') return 'skipped';
  return 'passed';
}

function tagLabels(tags: readonly string[]): Array<{ name: string; value: string }> {
  const labels = tags.map((tag) => ({ name: 'tag', value: tag.replace(/^@/, '') }));
  const value = (prefix: string): string | undefined => tags.find((tag) => tag.startsWith(prefix))?.slice(prefix.length);
  for (const [name, prefix] of [['epic', AREA_TAG_PREFIX], ['feature', METHOD_TAG_PREFIX], ['story', CHECK_TAG_PREFIX]] as const) {
    const found = value(prefix);
    if (found !== undefined) labels.push({ name, value: found });
  }
  return labels;
}

/**
 * Written one after the other on the run's thread, at the end of the run when nothing else is going on. Thousands of
 * small files created at once on the I/O threads contend for the folder's lock, and on a block group of recently
 * deleted files (a report folder replaced run after run) every creation is already slow: 3,011 results took 1.5 s and
 * 2.7 s of CPU in batches of 64 at once, and far less one at a time (docs/benchmarks.md).
 */
export function writeAllureResults(resultsDir: string, cells: readonly AllureCell[], parameters: ReadonlyArray<{ name: string; value: string }>): void {
  mkdirSync(resultsDir, { recursive: true });
  for (const cell of cells) writeAllureResult(resultsDir, cell, parameters);
}

function writeAllureResult(resultsDir: string, cell: AllureCell, parameters: ReadonlyArray<{ name: string; value: string }>): void {
  const uuid = randomUUID();
  const attachments: Array<{ name: string; source: string; type: string }> = [];
  if (cell.transcriptPath && existsSync(cell.transcriptPath)) {
    const source = `${randomUUID()}-attachment.txt`;
    copyFileSync(cell.transcriptPath, join(resultsDir, source));
    attachments.push({ name: 'rpc-transcript', source, type: 'text/plain' });
  }
  for (const path of cell.attachmentPaths) {
    if (!existsSync(path)) continue;
    const name = basename(path);
    const source = `${randomUUID()}-attachment${extname(name)}`;
    copyFileSync(path, join(resultsDir, source));
    attachments.push({ name, source, type: CONTENT_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream' });
  }
  const message = cell.message ?? cell.detail;
  const id = md5(cell.title);
  const result = {
    uuid,
    name: cell.title,
    fullName: `contract-gate › ${cell.title}`,
    historyId: id,
    testCaseId: id,
    status: allureStatus(cell.status),
    statusDetails: message && cell.status !== 'pass' ? { message } : {},
    stage: 'finished',
    steps: [],
    attachments,
    parameters,
    labels: [{ name: 'language', value: 'javascript' }, { name: 'framework', value: 'contract-gate' }, { name: 'suite', value: cell.suite }, ...tagLabels(cell.tags)],
    links: [],
    start: cell.start,
    stop: cell.stop,
  };
  writeFileSync(join(resultsDir, `${uuid}-result.json`), JSON.stringify(result));
}
