import { spawn } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, extname, isAbsolute, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Matrix, MatrixRun, MatrixRuns, MatrixTraffic } from '../src/report/matrixTypes.js';
import { parseMatrixJson, renderJson } from '../src/report/renderJson.js';
import { renderHtml } from '../src/report/renderHtml.js';
import { renderJunit } from '../src/report/renderJunit.js';
import { renderMarkdown } from '../src/report/renderMarkdown.js';
import { attachRuns, type FoundShard, mergeRuns, shardSetProblem } from '../src/report/runFacts.js';
import { addTraffic, mergeShardRecords, parseShardRecords, SHARD_RECORDS_FILE } from '../src/report/shardRecords.js';
import { HarnessError } from '../core/index.js';
import { type ConformanceMatrixOptions, MATRIX_FILES } from './conformanceMatrix.js';

export interface MergeShardsOptions {
  /**
   * Where the tests live in this checkout; merged test locations are resolved against it. Defaults to the working
   * directory. Playwright refuses to merge shards recorded under different roots unless a root is given.
   */
  testDir?: string;
  /** Append the merged Markdown report to $GITHUB_STEP_SUMMARY when that variable is set. Default true. */
  githubSummary?: boolean;
}

const MAX_DEPTH = 4;
/** Folder of the merged report that keeps the shards' attachments (Playwright puts them under `resources/`). */
export const ATTACHMENTS_DIR = 'attachments';

async function keepOnlyAttachments(folder: string): Promise<void> {
  const entries = await readdir(folder).catch(() => [] as string[]);
  await Promise.all(entries.filter((name) => name !== 'resources').map((name) => rm(join(folder, name), { recursive: true, force: true })));
  if ((await readdir(folder).catch(() => ['?'])).length === 0) await rm(folder, { recursive: true, force: true });
}

async function findFiles(dir: string, accept: (name: string) => boolean, depth = 0): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && depth < MAX_DEPTH) found.push(...(await findFiles(path, accept, depth + 1)));
    else if (entry.isFile() && accept(entry.name)) found.push(path);
  }
  return found.sort();
}

function sameRun(a: MatrixRun, b: MatrixRun): string | undefined {
  if (a.target !== b.target) return `targets differ (${a.target} / ${b.target})`;
  if (a.seed !== b.seed) return `seeds differ (${a.seed} / ${b.seed}): run every shard with the same seed`;
  const contracts = (run: MatrixRun): string => run.contracts.map((c) => `${c.title} ${c.version}`).join(', ');
  if (contracts(a) !== contracts(b)) return `contracts differ (${contracts(a)} / ${contracts(b)})`;
  if ((a.minCoverage ?? 0) !== (b.minCoverage ?? 0)) return `--min-coverage differs (${a.minCoverage ?? 0}% / ${b.minCoverage ?? 0}%): run every shard with the same floor`;
  return undefined;
}

/** What the shards' own matrix.json files say about the whole run. */
interface ShardsFacts {
  /** The run they all describe. */
  readonly run: MatrixRun;
  /** The runs per method (a budget, or a method's time limit, cut some), merged. */
  readonly runs: MatrixRuns | undefined;
  /** The requests every shard sent, added up. */
  readonly traffic: MatrixTraffic | undefined;
}

/** The run facts recorded by each shard's own matrix.json; every shard must describe the same run. */
async function factsOfShards(blobDirs: readonly string[]): Promise<ShardsFacts> {
  let run: MatrixRun | undefined;
  let from = '';
  const runs: Array<MatrixRuns | undefined> = [];
  let traffic: MatrixTraffic | undefined;
  const shards: FoundShard[] = [];
  for (const dir of blobDirs) {
    for (const path of await findFiles(dir, (name) => name === MATRIX_FILES.json)) {
      const shardMatrix = parseMatrixJson(await readFile(path, 'utf8'), path);
      if (shardMatrix.shard !== undefined) shards.push({ shard: shardMatrix.shard, path });
      const { target, contracts, seed, failOnFlaky, minCoverage } = shardMatrix;
      const shardRun: MatrixRun = { target, contracts, seed, ...(failOnFlaky ? { failOnFlaky } : {}), ...(minCoverage ? { minCoverage } : {}) };
      const mismatch = run && sameRun(run, shardRun);
      if (mismatch) throw new HarnessError('USAGE', `cannot merge ${from} and ${path}: ${mismatch}`);
      run ??= shardRun;
      from ||= path;
      runs.push(shardMatrix.runs);
      traffic = addTraffic(traffic, shardMatrix.traffic);
    }
  }
  const incomplete = shardSetProblem(shards);
  if (incomplete) throw new HarnessError('USAGE', `cannot merge: ${incomplete}`);
  if (run) return { run, runs: mergeRuns(runs), traffic };
  throw new HarnessError('USAGE', `no matrix.json in ${blobDirs.join(', ')}: each shard's report folder holds one beside its blob report`);
}

const ALLURE_RESULTS = 'allure-results';
/** The folders of a run's linked files that only the shards fill (attachments/ also holds a merge's own resources). */
const SHARD_FILE_FOLDERS = ['transcripts', 'replays'];

/**
 * Transcripts, replay files and attachments stay in the shard that wrote them; the merged matrix links them relative to the
 * merged folder, so each linked file is copied over. Allure results are per-test files and are pooled. A merged folder
 * used before (an earlier merge) keeps none of those files of its own, unless it is one of the shards.
 */
async function gatherShardFiles(dirs: readonly string[], output: string, matrix: Matrix): Promise<void> {
  if (!dirs.includes(output)) await Promise.all([...SHARD_FILE_FOLDERS, ALLURE_RESULTS].map((entry) => rm(join(output, entry), { recursive: true, force: true })));
  const linked = new Set(matrix.cells.flatMap((cell) => [cell.transcript, cell.replay, ...(cell.attachments ?? [])]).filter((path): path is string => !!path));
  for (const path of linked) {
    const clean = normalize(path);
    if (isAbsolute(clean) || clean.startsWith(`..${sep}`) || clean === '..') continue;
    const source = dirs.map((dir) => join(dir, clean)).find((candidate) => existsSync(candidate));
    if (!source || source === join(output, clean)) continue;
    await mkdir(join(output, clean, '..'), { recursive: true });
    await copyFile(source, join(output, clean));
  }
  for (const dir of dirs) {
    const results = join(dir, ALLURE_RESULTS);
    if (!existsSync(results)) continue;
    await mkdir(join(output, ALLURE_RESULTS), { recursive: true });
    for (const entry of await readdir(results, { withFileTypes: true })) {
      if (entry.isFile()) await copyFile(join(results, entry.name), join(output, ALLURE_RESULTS, entry.name));
    }
  }
}

/** Shards the run engine ran: their records make one matrix, written as a run writes it. */
async function mergeEngineShards(dirs: readonly string[], recordFiles: readonly string[], output: string, options: MergeShardsOptions): Promise<{ exitCode: number }> {
  const { run, runs } = await factsOfShards(dirs);
  const shards = await Promise.all(recordFiles.map(async (path) => parseShardRecords(await readFile(path, 'utf8'), path)));
  const matrix = mergeShardRecords(shards, run);
  if (runs) attachRuns(matrix, runs);
  await mkdir(output, { recursive: true });
  const markdown = renderMarkdown(matrix);
  await writeFile(join(output, MATRIX_FILES.json), renderJson(matrix));
  await writeFile(join(output, MATRIX_FILES.markdown), markdown);
  await writeFile(join(output, MATRIX_FILES.html), renderHtml(matrix));
  await writeFile(join(output, 'junit.xml'), renderJunit(matrix));
  const summaryFile = process.env['GITHUB_STEP_SUMMARY'];
  if (summaryFile && options.githubSummary !== false) appendFileSync(summaryFile, `${markdown}\n`);
  await gatherShardFiles(dirs, output, matrix);
  return { exitCode: matrix.verdict === 'pass' ? 0 : 1 };
}

function runPlaywright(args: string[]): Promise<number> {
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: 'inherit' });
    child.on('error', fail);
    child.on('close', (code) => done(code ?? 1));
  });
}

function matrixReporterPath(): string {
  const self = fileURLToPath(import.meta.url);
  return fileURLToPath(new URL(`./conformanceMatrix${extname(self)}`, import.meta.url));
}

/**
 * Merges the blob reports of a sharded run (one folder per shard: the shard's report folder, holding its `*.zip`
 * blob and its partial matrix.json) into one report folder: matrix.json/.md/.html, junit.xml, the transcripts and
 * replay files the matrix links to, and the pooled allure-results/.
 * Exit codes follow the CLI (cli/exitCodes.ts): 0 the merged matrix passes, 1 it fails, 2 the merge failed.
 */
export async function mergeShards(blobDirs: string[], reportDir: string, options: MergeShardsOptions = {}): Promise<{ exitCode: number }> {
  if (blobDirs.length === 0) throw new HarnessError('USAGE', 'merge needs at least one blob folder (e.g. contract-gate merge blob-*/)');
  const dirs = blobDirs.map((dir) => resolve(dir));
  for (const dir of dirs) {
    if (!(await stat(dir).catch(() => undefined))?.isDirectory()) throw new HarnessError('USAGE', `blob folder ${dir} does not exist or is not a folder`);
  }
  const blobs = (await Promise.all(dirs.map((dir) => findFiles(dir, (name) => name.endsWith('.zip'))))).flat();
  const recordFiles = (await Promise.all(dirs.map((dir) => findFiles(dir, (name) => name === SHARD_RECORDS_FILE)))).flat();
  if (blobs.length === 0 && recordFiles.length > 0) return mergeEngineShards(dirs, recordFiles, resolve(reportDir), options);
  if (blobs.length === 0) {
    throw new HarnessError('USAGE', `no blob report (*.zip) or ${SHARD_RECORDS_FILE} in ${dirs.join(', ')}: run each shard with --shard i/n so it writes one`);
  }
  const { run, runs, traffic } = await factsOfShards(dirs);
  const output = resolve(reportDir);
  const work = await mkdtemp(join(tmpdir(), 'contract-gate-merge-'));
  // merge-reports reads one folder and unpacks the attachments into it, so the blobs are copied under unique
  // names into a folder of the report: the attachments junit.xml links to then ship with the report.
  const blobFolder = join(output, ATTACHMENTS_DIR);
  try {
    await rm(blobFolder, { recursive: true, force: true });
    await mkdir(blobFolder, { recursive: true });
    await Promise.all(blobs.map((blob, index) => copyFile(blob, join(blobFolder, `${String(index).padStart(3, '0')}-${basename(blob)}`))));
    const matrixOptions: ConformanceMatrixOptions = { outputDir: output, run, ...(runs ? { runs } : {}), ...(traffic ? { traffic } : {}), githubSummary: options.githubSummary ?? true };
    const config = {
      testDir: resolve(options.testDir ?? process.cwd()),
      reporter: [
        [matrixReporterPath(), matrixOptions],
        ['junit', { outputFile: join(output, 'junit.xml') }],
      ],
    };
    const configFile = join(work, 'merge.config.mjs');
    await writeFile(configFile, `export default ${JSON.stringify(config, null, 2)};\n`);
    await rm(join(output, MATRIX_FILES.json), { force: true });
    const code = await runPlaywright(['merge-reports', '--config', configFile, blobFolder]);
    const matrixFile = join(output, MATRIX_FILES.json);
    if (code !== 0 || !existsSync(matrixFile)) {
      process.stderr.write(`contract-gate merge: playwright merge-reports failed (exit code ${code}); no merged matrix in ${output}\n`);
      return { exitCode: 2 };
    }
    const matrix = parseMatrixJson(await readFile(matrixFile, 'utf8'), matrixFile);
    await gatherShardFiles(dirs, output, matrix);
    return { exitCode: matrix.verdict === 'pass' ? 0 : 1 };
  } finally {
    await rm(work, { recursive: true, force: true });
    await keepOnlyAttachments(blobFolder);
  }
}
