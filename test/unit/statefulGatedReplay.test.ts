import { expect, test } from './helpers/test.js';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type RunningGateway, startGateway } from '../../gateway/index.js';
import { readStatefulReplayFile } from '../../src/replay/statefulReplayFile.js';
import { REPO, runCli } from './helpers/cliRunner.js';

/*
 * A stateful counterexample found against a gated target replays against it: the run and the replay log in with
 * the basic login, and every connection of the sequence (a reconnect opens a second one) redeems its own fresh,
 * single-use ticket. The fault only shows after a reconnect, so the shrunk sequence needs two connections.
 */

const PASSWORD = 'pw-71c3-stateful-secret';
const CONTRACT = 'profiles/hermes/contracts/session-lifecycle.openrpc.json';
const ENV = { STAGING_PASSWORD: PASSWORD };
const LOGIN = ['--auth', 'ticket', '--login', 'basic', '--user', 'ci', '--password-env', 'STAGING_PASSWORD'];
const FAULT = 'sequence.since-foreign-after-reconnect';
const RESULTS = join(REPO, 'test-results', 'stateful-gated-replay');
/** The stateful.model cell alone, with a seed whose sequences reach the fault (the embedded gateway also draws its directive commands). */
const statefulOnly = (seed: number): string[] => ['--grep', '@check:stateful\\.model', '--seed', String(seed), '--stateful-runs', '40', '--workers', '1'];

function gatedFaultyGateway(): Promise<RunningGateway> {
  return startGateway({ contractPaths: [join(REPO, CONTRACT)], faults: [FAULT], auth: { basicUser: 'ci', basicPassword: PASSWORD } });
}

test('a shrunk sequence found against a gated faulty gateway replays against it with a fresh ticket per connection', async () => {
  test.setTimeout(240_000);
  const gateway = await gatedFaultyGateway();
  const reportDir = join(RESULTS, 'external');
  rmSync(reportDir, { recursive: true, force: true });
  try {
    const run = await runCli(['run', '--target', gateway.url, ...LOGIN, '--contract', CONTRACT, ...statefulOnly(3), '--report-dir', reportDir], ENV, 200_000);
    expect(run.code, `${run.stdout.slice(-3_000)}\n${run.stderr.slice(-2_000)}`).toBe(1);
    const path = join(reportDir, 'replays', 'stateful--stateful.model.json');
    expect(existsSync(path), run.stdout.slice(-3_000)).toBe(true);
    const file = readStatefulReplayFile(path);
    expect(file.auth).toEqual({ mode: 'ticket', login: { kind: 'basic', user: 'ci', passwordEnv: 'STAGING_PASSWORD' }, via: 'query' });
    expect(file.steps.map((step) => step.command)).toContain('reconnect');
    expect(readFileSync(path, 'utf8')).not.toContain(PASSWORD);

    const before = gateway.auth!.counters;
    const issuedBefore = gateway.auth!.issuedTickets.length;
    const replay = await runCli(['replay', path], ENV);
    expect(replay.code, `${replay.stdout}\n${replay.stderr}`).toBe(1);
    expect(replay.stdout).toContain('contract-gate replay: auth: fresh ticket per connection (basic login as ci, presented as ?ticket=)');
    expect(replay.stdout).toMatch(/REPRODUCED at step \d+: \[since\.replay\]/);

    const after = gateway.auth!.counters;
    const opened = after.connectionsOpened - before.connectionsOpened;
    const minted = gateway.auth!.issuedTickets.slice(issuedBefore);
    // Client a, then client a again after the abnormal drop: at least two connections, each on a ticket of its own.
    expect(opened).toBeGreaterThanOrEqual(2);
    expect(after.ticketsRedeemed - before.ticketsRedeemed).toBe(opened);
    expect(minted).toHaveLength(opened);
    expect(new Set(minted).size).toBe(minted.length);
    expect(Object.values(after.refused).reduce((sum, count) => sum + count, 0)).toBe(Object.values(before.refused).reduce((sum, count) => sum + count, 0));
    expect(`${replay.stdout}${replay.stderr}`).not.toContain(PASSWORD);
    for (const ticket of minted) expect(replay.stdout).not.toContain(ticket);
  } finally {
    await gateway.close();
  }
});

test('a counterexample of the embedded gateway run gated replays against a new gated one, with a login made up for the replay', async () => {
  test.setTimeout(240_000);
  const reportDir = join(RESULTS, 'embedded');
  rmSync(reportDir, { recursive: true, force: true });
  const run = await runCli(['run', '--embedded-auth', 'gated', '--fault', FAULT, '--contract', CONTRACT, ...statefulOnly(2), '--report-dir', reportDir], {}, 200_000);
  expect(run.code, `${run.stdout.slice(-3_000)}\n${run.stderr.slice(-2_000)}`).toBe(1);
  const path = join(reportDir, 'replays', 'stateful--stateful.model.json');
  const file = readStatefulReplayFile(path);
  expect(file.gateway?.gated).toBe(true);
  expect(file.auth?.mode).toBe('ticket');
  const replay = await runCli(['replay', path]);
  expect(replay.code, `${replay.stdout}\n${replay.stderr}`).toBe(1);
  expect(replay.stdout).toContain('against a new embedded reference gateway');
  expect(replay.stdout).toMatch(/REPRODUCED at step \d+: \[since\.replay\]/);
});
