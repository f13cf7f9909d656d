import { createHash, randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
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
 * Where a run sets the results of the run before it aside, inside the report folder: under `test-output/`, which the
 * next run removes with its other working files (see writeAllureResults).
 */
export const ALLURE_RESULTS_SET_ASIDE = join('test-output', 'allure-results-previous');

/**
 * At a run's start: the report folder's `allure-results/` of the run before goes aside (a rename), so that no result
 * of that run can pass for one of this run, and so that writeAllureResults can rewrite its files in place. A runner
 * that writes results of its own (Playwright's) leaves them there.
 */
export function setAsideAllureResults(reportDir: string): void {
  const aside = join(reportDir, ALLURE_RESULTS_SET_ASIDE);
  rmSync(aside, { recursive: true, force: true });
  const results = join(reportDir, 'allure-results');
  if (!existsSync(results)) return;
  mkdirSync(dirname(aside), { recursive: true });
  renameSync(results, aside);
}

/**
 * Makes `resultsDir` hold these cells' results and nothing else, taking back the folder set aside at the run's start
 * (`setAside`, the report folder's ALLURE_RESULTS_SET_ASIDE) when there is one.
 *
 * A cell's files are named after its title, not a fresh uuid, so a run rewrites the files of the run before it
 * instead of creating thousands of new ones. On ext4, creating a file where many were recently deleted (a report
 * folder replaced run after run) costs far more than rewriting one: 3,011 results into a folder emptied seconds
 * before took 1.0-2.2 s, rewritten in place 0.16-0.45 s (docs/benchmarks.md). Files no cell of this run names are
 * removed. Written one after the other on the run's thread: thousands of small files created at once on the I/O
 * threads contend for the folder's lock (3,011 results took 1.5 s and 2.7 s of CPU in batches of 64 at once).
 */
export function writeAllureResults(resultsDir: string, cells: readonly AllureCell[], parameters: ReadonlyArray<{ name: string; value: string }>, setAside?: string): void {
  if (setAside !== undefined && existsSync(setAside) && !existsSync(resultsDir)) renameSync(setAside, resultsDir);
  mkdirSync(resultsDir, { recursive: true });
  const written = new Set<string>();
  const stems = new Map<string, number>();
  for (const cell of cells) {
    // Two cells of one title (one method name in two documents) get a file each.
    const id = md5(cell.title);
    const seen = stems.get(id) ?? 0;
    stems.set(id, seen + 1);
    for (const name of writeAllureResult(resultsDir, cell, parameters, id, seen === 0 ? id : `${id}-${seen + 1}`)) written.add(name);
  }
  for (const entry of readdirSync(resultsDir)) if (!written.has(entry)) rmSync(join(resultsDir, entry), { recursive: true, force: true });
}

/** Writes one cell's result and attachments as `<stem>-…`; `id` is its title's digest. Returns the names of the files written. */
function writeAllureResult(resultsDir: string, cell: AllureCell, parameters: ReadonlyArray<{ name: string; value: string }>, id: string, stem: string): string[] {
  const files: string[] = [];
  const attachments: Array<{ name: string; source: string; type: string }> = [];
  const attach = (path: string, name: string, type: string, extension: string): void => {
    const source = `${stem}-${files.length}-attachment${extension}`;
    copyFileSync(path, join(resultsDir, source));
    files.push(source);
    attachments.push({ name, source, type });
  };
  if (cell.transcriptPath && existsSync(cell.transcriptPath)) attach(cell.transcriptPath, 'rpc-transcript', 'text/plain', '.txt');
  for (const path of cell.attachmentPaths) {
    if (!existsSync(path)) continue;
    const name = basename(path);
    attach(path, name, CONTENT_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream', extname(name));
  }
  const message = cell.message ?? cell.detail;
  const result = {
    uuid: randomUUID(),
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
  const name = `${stem}-result.json`;
  writeFileSync(join(resultsDir, name), JSON.stringify(result));
  files.push(name);
  return files;
}
