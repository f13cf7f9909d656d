import { expect, test } from './helpers/test.js';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, runCli, serveCli } from './helpers/cliRunner.js';
import { scratchDir } from './helpers/scratchDir.js';
import type { Matrix } from '../../src/report/matrixTypes.js';

const PRE = join(REPO, 'profiles/hermes/contracts/session-lifecycle.pre-cwd-explicit.openrpc.json');
/** The contract these runs hold their targets to: the session-lifecycle slice (the default is the full document). */
const SLICE = ['--contract', join(REPO, 'profiles/hermes/contracts/session-lifecycle.openrpc.json')];
const TOKEN = 'cg-secret-7f3e9b21d4';

test.describe.configure({ mode: 'parallel', timeout: 180_000 });

function tmp(): string {
  return scratchDir('contract-gate-cli');
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function cells(reportDir: string): Record<string, string> {
  const matrix = JSON.parse(readFileSync(join(reportDir, 'matrix.json'), 'utf8')) as { cells: Array<{ method: string; check: string; status: string }> };
  return Object.fromEntries(matrix.cells.map((c) => [`${c.method} × ${c.check}`, c.status]));
}

test('an older backend fails the gate on session.create; the token appears in no report file and no output', async () => {
  const older = await serveCli(['--contract', PRE, '--token-env', 'GATEWAY_TOKEN'], { GATEWAY_TOKEN: TOKEN });
  const reportDir = tmp();
  try {
    const run = await runCli(['run', ...SLICE, '--target', older.url, '--token-env', 'GATEWAY_TOKEN', '--grep', '@method:session\\.create|\\(connection\\)', '--seed', '3', '--report-dir', reportDir], { GATEWAY_TOKEN: TOKEN });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(cells(reportDir)['session.create × params.valid-accepted']).toBe('fail');
    const files = filesUnder(reportDir);
    expect(files.some((f) => f.includes('replays'))).toBe(true);
    expect(files.some((f) => f.endsWith('junit.xml'))).toBe(true);
    for (const file of files) expect(readFileSync(file).includes(TOKEN), file).toBe(false);
    expect(run.stdout + run.stderr).not.toContain(TOKEN);
  } finally {
    older.stop();
  }
});

test('a wrong token is a harness error (exit 2) that does not print the token', async () => {
  const gateway = await serveCli(['--token-env', 'GATEWAY_TOKEN'], { GATEWAY_TOKEN: TOKEN });
  try {
    const run = await runCli(['run', '--target', gateway.url, '--token-env', 'WRONG_TOKEN', '--report-dir', tmp()], { WRONG_TOKEN: 'not-the-token-55' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('4401');
    expect(run.stdout + run.stderr).not.toContain('not-the-token-55');
  } finally {
    gateway.stop();
  }
});

test('a known failure in the baseline passes the gate; a baseline entry that passes now is stale and fails it', async () => {
  const older = await serveCli(['--contract', PRE]);
  try {
    const baseline = join(tmp(), 'baseline.json');
    writeFileSync(baseline, JSON.stringify([{ method: 'session.create', check: 'params.valid-accepted', reason: 'remote backends predate cwd_explicit (#52589)' }]));
    const known = tmp();
    const run = await runCli(['run', ...SLICE, '--target', older.url, '--grep', '@method:session\\.create', '--seed', '3', '--baseline', baseline, '--report-dir', known]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(cells(known)['session.create × params.valid-accepted']).toBe('known-fail');

    writeFileSync(baseline, JSON.stringify([{ method: 'session.list', check: 'params.valid-accepted', reason: 'was flaky once' }]));
    const stale = tmp();
    const staleRun = await runCli(['run', ...SLICE, '--target', older.url, '--grep', '@method:session\\.list', '--seed', '3', '--baseline', baseline, '--report-dir', stale]);
    expect(staleRun.code).toBe(1);
    expect(cells(stale)['session.list × params.valid-accepted']).toBe('stale');
    expect(readFileSync(join(stale, 'matrix.md'), 'utf8')).toMatch(/stale/i);
  } finally {
    older.stop();
  }
});

test('two shards merged give the same matrix as one unsharded run with the same seed, with the runs per method each made under the budget', async () => {
  const grep = '@method:session\\.(list|title|status|usage)';
  // A budget the four methods fit in: every shard reports its runs per method, and the merge all of them.
  const args = [...SLICE, '--grep', grep, '--seed', '11', '--budget', '2m', '--min-coverage', '100'];
  const whole = tmp();
  const [one, two] = [tmp(), tmp()];
  const results = await Promise.all([
    runCli(['run', ...args, '--report-dir', whole]),
    runCli(['run', ...args, '--shard', '1/2', '--report-dir', one]),
    runCli(['run', ...args, '--shard', '2/2', '--report-dir', two]),
  ]);
  for (const result of results) expect(result.code, result.stdout + result.stderr).toBe(0);
  const merged = tmp();
  const merge = await runCli(['merge', one, two, '--report-dir', merged]);
  expect(merge.code, merge.stdout + merge.stderr).toBe(0);
  // Each shard leaves the coverage floor to the merge, which says its verdict as a run does.
  for (const shard of results.slice(1)) expect(shard.stdout).toContain('contract-gate: --min-coverage 100% is for the whole run: `contract-gate merge` holds the merged matrix to it, not this shard\n');
  expect(results[0]?.stdout).not.toContain('is for the whole run');
  expect(merge.stdout).toMatch(/^contract-gate merge: PASS — \d+ pass .*; coverage 4\/4 methods; matrix .*matrix\.md$/m);
  expect((JSON.parse(readFileSync(join(merged, 'matrix.json'), 'utf8')) as Matrix).minCoverage).toBe(100);
  expect(cells(merged)).toEqual(cells(whole));
  expect(Object.keys(cells(whole)).length).toBe(40);
  const runsOf = (dir: string) => {
    const runs = (JSON.parse(readFileSync(join(dir, 'matrix.json'), 'utf8')) as Matrix).runs;
    return runs && { budgetMs: runs.budgetMs, cut: runs.cut, methods: runs.methods.map(({ method, asked, made }) => ({ method, asked, made })).sort((a, b) => a.method.localeCompare(b.method)) };
  };
  expect(runsOf(merged)).toEqual(runsOf(whole));
  expect(runsOf(whole)?.methods.map((method) => method.method)).toEqual(['session.list', 'session.status', 'session.title', 'session.usage']);
  expect(readFileSync(join(merged, 'matrix.md'), 'utf8')).toContain('| Runs | budget 2m: every method made the valid runs asked (4 methods) |');
  // Without shard 2, or with shard 1 twice, the merge refuses (exit 2): a missing shard's cells would pass unseen. Into
  // the folder of the merge above, it leaves none of that merge's verdict to be uploaded as its own.
  const [part, twice] = await Promise.all([runCli(['merge', one, '--report-dir', merged]), runCli(['merge', one, one, two, '--report-dir', merged])]);
  expect(part.code, part.stdout + part.stderr).toBe(2);
  expect(part.stderr).toContain('cannot merge: shard 2/2 missing: no folder given holds its matrix.json');
  expect(twice.code, twice.stdout + twice.stderr).toBe(2);
  expect(twice.stderr).toContain('cannot merge: shard 1/2 is given twice');
  expect(readdirSync(merged), 'a refused merge leaves no report').toEqual([]);
  expect(existsSync(join(one, 'matrix.json')) && existsSync(join(two, 'matrix.json')), 'the shards are kept').toBe(true);
});

test('--version and -V print the package version and exit 0; the top-level help lists the option', async () => {
  const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
  for (const flag of ['--version', '-V']) {
    const printed = await runCli([flag]);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).toBe(`${version}\n`);
  }
  expect((await runCli(['--help'])).stdout).toMatch(/-V, --version\s+print the version of contract-gate/);
});

test('usage errors exit 2 with a message naming the problem', async () => {
  const badSeed = await runCli(['run', '--seed', 'abc']);
  expect(badSeed.code).toBe(2);
  const missing = await runCli(['run', '--contract', '/no/such/contract.json']);
  expect(missing.code).toBe(2);
  expect(missing.stderr).toContain('/no/such/contract.json');
  // The folder holds an earlier run's report: a run that cannot start leaves none of it to be read as its own.
  const reused = tmp();
  for (const file of ['matrix.json', 'matrix.md', 'junit.xml']) writeFileSync(join(reused, file), 'an earlier run');
  mkdirSync(join(reused, 'allure-results'));
  writeFileSync(join(reused, 'allure-results', 'a-result.json'), '{}');
  writeFileSync(join(reused, 'notes.txt'), 'not the run\'s');
  const unreachable = await runCli(['run', '--target', 'ws://127.0.0.1:9/api/ws', '--report-dir', reused]);
  expect(unreachable.code).toBe(2);
  expect(unreachable.stderr).toContain('GATEWAY_UNREACHABLE');
  expect(readdirSync(reused).filter((name) => name !== 'test-output'), 'only what the run never writes is left').toEqual(['notes.txt']);
  // A report folder that cannot be made is said at once, naming the option; /proc made Node's recursive mkdir spin.
  const file = join(tmp(), 'a-file');
  writeFileSync(file, 'not a folder');
  const [underFile, isFile, underProc] = await Promise.all([
    runCli(['run', '--report-dir', join(file, 'report')]),
    runCli(['run', '--report-dir', file]),
    runCli(['run', '--report-dir', '/proc/contract-gate/report'], {}, 20_000),
  ]);
  expect([underFile.code, isFile.code, underProc.code]).toEqual([2, 2, 2]);
  expect(underFile.stderr).toContain(`[USAGE] --report-dir ${join(file, 'report')}: ${file} is not a folder`);
  expect(isFile.stderr).toContain(`[USAGE] --report-dir ${file}: it is a file, not a folder`);
  expect(underProc.stderr).toContain('[USAGE] --report-dir /proc/contract-gate/report: cannot create /proc/contract-gate');
});

test('a --grep that selects no check is a usage error (exit 2) with either runner, before anything runs; a shard it leaves empty is not', async () => {
  for (const runner of ['in-process', 'playwright']) {
    const reportDir = tmp();
    const run = await runCli(['run', ...SLICE, '--runner', runner, '--grep', '@check:params\\.valid-acepted', '--report-dir', reportDir]);
    expect(run.code, `${runner}: ${run.stdout}${run.stderr}`).toBe(2);
    expect(run.stderr).toContain('--grep @check:params\\.valid-acepted selects none of the 373 checks of this run');
    expect(readdirSync(reportDir), `${runner}: nothing ran`).toEqual([]);
  }
  // One method's checks land on one shard of two; the other shard declares none of them and has nothing to judge.
  const shards = await Promise.all(['1/2', '2/2'].map((shard) => runCli(['run', ...SLICE, '--grep', '@method:session\\.list(?=\\s|$)', '--shard', shard, '--seed', '1', '--report-dir', tmp()])));
  expect(shards.map((shard) => shard.code)).toEqual([0, 0]);
  expect(shards.map((shard) => /PASS — (\d+) pass/.exec(shard.stdout)?.[1]).sort()).toEqual(['0', '9']);
});

test('a report folder used again holds the last run\'s Allure results and attachments only (no HTML report of the run before), the files of cells both runs judged rewritten in place', async () => {
  const reportDir = tmp();
  const results = join(reportDir, 'allure-results');
  const names = (): Array<{ file: string; name: string }> =>
    readdirSync(results)
      .filter((file) => file.endsWith('-result.json'))
      .map((file) => ({ file, name: (JSON.parse(readFileSync(join(results, file), 'utf8')) as { name: string }).name }));
  const run = (grep: string) => runCli(['run', ...SLICE, '--grep', grep, '--seed', '3', '--report-dir', reportDir]);
  expect((await run('@method:session\\.(create|list)(?=\\s|$)')).code).toBe(0);
  const first = new Map(names().map(({ file, name }) => [name, statSync(join(results, file)).ino]));
  expect([...first.keys()].some((name) => name.startsWith('session.list ›'))).toBe(true);

  // What a cell of the run before attached (a failing lane's screenshot) is not this run's either.
  mkdirSync(join(reportDir, 'attachments', 'topology_scenario.browser-remote-lane'), { recursive: true });
  writeFileSync(join(reportDir, 'attachments', 'topology_scenario.browser-remote-lane', 'remote-lane-1.png'), 'an earlier run');
  // Nor is the HTML report `contract-gate report` rendered from it.
  mkdirSync(join(reportDir, 'allure-report'));
  writeFileSync(join(reportDir, 'allure-report', 'index.html'), 'an earlier run');
  expect((await run('@method:session\\.create(?=\\s|$)')).code).toBe(0);
  expect(existsSync(join(reportDir, 'attachments', 'topology_scenario.browser-remote-lane', 'remote-lane-1.png')), 'the run before\'s attachment').toBe(false);
  expect(existsSync(join(reportDir, 'allure-report')), 'the HTML report of the run before').toBe(false);
  const second = names();
  expect(second.map(({ name }) => name).sort()).toEqual(Object.keys(cells(reportDir)).map((key) => key.replace(' × ', ' › ')).sort());
  expect(second.every(({ name }) => name.startsWith('session.create ›'))).toBe(true);
  for (const { file, name } of second) expect(statSync(join(results, file)).ino, name).toBe(first.get(name));
  expect(readdirSync(join(reportDir, 'test-output')), 'the folder set aside was taken back').not.toContain('allure-results-previous');
});
