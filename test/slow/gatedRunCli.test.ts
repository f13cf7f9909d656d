import { expect, test } from '../unit/helpers/test.js';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type RunningGateway, startGateway } from '../../gateway/index.js';
import { parseMatrixJson } from '../../src/report/renderJson.js';
import { anyOverlap, JUNK_CHECKS, junkCellSpans } from '../unit/helpers/cellSpans.js';
import { REPO, runCli, serveCli } from '../unit/helpers/cliRunner.js';
import { HOOKS_EXTENSION } from '../unit/helpers/gatewayHarness.js';

/*
 * A run against a gated Hermes dashboard (the reference gateway in gated mode): the whole run passes with a basic
 * login, with either ticket presentation, each connection on its own fresh ticket; the legacy token fails fast.
 */

const PASSWORD = 'pw-5e2a-staging-secret';
const TOKEN = 'legacy-0d4c-staging-token';
const CONTRACT = 'profiles/hermes/contracts/session-lifecycle.openrpc.json';
const ENV = { STAGING_PASSWORD: PASSWORD, STAGING_TOKEN: TOKEN };
const RESULTS = join(REPO, 'test-results', 'gated-run');
const LOGIN = ['--auth', 'ticket', '--login', 'basic', '--user', 'ci', '--password-env', 'STAGING_PASSWORD'];
const FAST = ['--contract', CONTRACT, '--seed', '1', '--runs', '5', '--workers', '2'];

/**
 * Tickets the (auth) row spends on purpose without opening a connection: the expired one, the lone ticket protocol,
 * the two ticket protocols (2), and the two presented from a foreign Origin (its own check and the session check).
 */
const SPENT_BY_AUTH_ROW = 6;

async function gatedGateway(faults: string[] = []): Promise<RunningGateway> {
  return startGateway({
    contractPaths: [join(REPO, CONTRACT), HOOKS_EXTENSION],
    token: TOKEN,
    faults,
    auth: { basicUser: 'ci', basicPassword: PASSWORD, ticketTtlMs: 2_000 },
  });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * Every file of the report folder must hold none of the secrets: the password and the token verbatim, and no ticket
 * (43 base64url characters) the gateway minted, found in one pass per file over its base64url runs.
 */
function expectNoSecret(reportDir: string, secrets: readonly string[], tickets: readonly string[]): void {
  const minted = new Set(tickets);
  const files = filesUnder(reportDir);
  expect(files.length).toBeGreaterThan(10);
  const leaks: string[] = [];
  for (const file of files) {
    const text = readFileSync(file).toString('latin1');
    for (const secret of secrets) if (text.includes(secret)) leaks.push(`${secret.slice(0, 6)}… in ${file}`);
    for (const [run] of text.matchAll(/[A-Za-z0-9_-]{43,}/g)) {
      for (let start = 0; start + 43 <= run.length; start++) if (minted.has(run.slice(start, start + 43))) leaks.push(`a minted ticket in ${file}`);
    }
  }
  expect(leaks).toEqual([]);
}

/**
 * The ticket presentations: the query one on the whole run; the subprotocol one (one place in the client, and the
 * page's own in the browser lane) on every kind of connection a run opens: the (auth) row's probes, method runs,
 * the connection-level frames, reconnects and replays, multi-connection scenarios, session hooks and the browser page.
 */
const PRESENTATIONS = [
  { via: 'query', selection: 'a full run', grep: [], connectionsAtLeast: 50 },
  {
    via: 'subprotocol',
    selection: 'a run of every kind of connection',
    grep: ['--grep', '@area:auth|@method:(\\(connection\\)|topology|replay|lifecycle|hooks|session\\.create|prompt\\.submit)(?=\\s|$)'],
    connectionsAtLeast: 20,
  },
] as const;

for (const { via, selection, grep, connectionsAtLeast } of PRESENTATIONS) {
  test(`${selection} against a gated gateway passes with --auth ticket --login basic --ticket-via ${via}, one fresh ticket per connection, no credential in the report`, async () => {
    test.setTimeout(240_000);
    const gateway = await gatedGateway();
    const reportDir = join(RESULTS, via);
    rmSync(reportDir, { recursive: true, force: true });
    try {
      const result = await runCli(['run', '--target', gateway.url, ...LOGIN, '--ticket-via', via, '--token-env', 'STAGING_TOKEN', ...FAST, ...grep, '--report-dir', reportDir], ENV, 230_000);
      const context = `${result.stdout.slice(-3_000)}\n${result.stderr.slice(-3_000)}`;
      expect(result.code, context).toBe(0);
      expect(result.stdout).toContain(`auth: fresh ticket per connection (basic login as ci, presented as ${via === 'query' ? '?ticket=' : 'subprotocol'})`);
      const matrix = parseMatrixJson(readFileSync(join(reportDir, 'matrix.json'), 'utf8'), reportDir);
      const authRow = matrix.cells.filter((cell) => cell.method === '(auth)');
      expect(authRow.map((cell) => `${cell.check} ${cell.status}`).sort()).toEqual(
        [
          'auth.expired-refused',
          'auth.foreign-origin-refused',
          'auth.legacy-token-refused',
          'auth.missing-refused',
          'auth.refused-reaches-no-session',
          'auth.reused-refused',
          'auth.selected-protocol',
          'auth.ticket-protocol-alone-refused',
          'auth.two-ticket-protocols-refused',
          'auth.wrong-refused',
        ].map((check) => `${check} pass`),
      );
      expect(matrix.cells.find((cell) => cell.check === 'scenario.browser-remote-lane')?.status).toMatch(/^(pass|n\/a)$/);
      const { counters, issuedTickets } = gateway.auth!;
      // Every connection the run opened redeemed a ticket minted for it; every other ticket the (auth) row spent on purpose.
      expect(counters.connectionsOpened).toBeGreaterThan(connectionsAtLeast);
      if (grep.length > 0) expect(new Set(matrix.cells.map((cell) => cell.method)), 'every kind of connection').toEqual(new Set(['(auth)', '(connection)', 'topology', 'replay', 'lifecycle', 'hooks', 'session.create', 'prompt.submit']));
      expect(counters.ticketsMinted).toBe(counters.connectionsOpened + SPENT_BY_AUTH_ROW);
      expect(counters.ticketsRedeemed).toBe(counters.connectionsOpened + counters.refused['origin_mismatch']!);
      expect(counters.refused['legacy_token_refused']).toBe(1);
      expectNoSecret(reportDir, [PASSWORD, TOKEN], issuedTickets);
      // One server shared by both lanes: its junk-frame checks went one at a time, so that a frame which brings it
      // down is named by the cell that sent it (over stdio and on the embedded gateway they go side by side).
      const spans = junkCellSpans(reportDir);
      expect(spans).toHaveLength(JUNK_CHECKS.length);
      expect(anyOverlap(spans), JSON.stringify(spans)).toBe(false);
    } finally {
      await gateway.close();
    }
  });
}

test('the legacy token against a gated gateway fails fast (exit 2) naming the options to use; so does a run without credentials', async () => {
  const gateway = await gatedGateway();
  try {
    for (const args of [['--auth', 'token', '--token-env', 'STAGING_TOKEN'], ['--token-env', 'STAGING_TOKEN'], []]) {
      const started = Date.now();
      const result = await runCli(['run', '--target', gateway.url, ...args, '--contract', CONTRACT, '--report-dir', join(RESULTS, 'token')], ENV);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/^contract-gate: \[AUTH_FAILED\] the target's dashboard \(127\.0\.0\.1:\d+\) is gated \(providers: basic\): it refuses .+; use --auth ticket --login basic --user USER --password-env VAR \(or --cookie-env VAR/m);
      expect(Date.now() - started).toBeLessThan(10_000);
    }
    expect(gateway.auth!.counters.connectionsOpened).toBe(0);
  } finally {
    await gateway.close();
  }
});

test('a refused login or ticket endpoint is a harness error (exit 2) with the HTTP status, before any cell runs', async () => {
  const gateway = await gatedGateway();
  try {
    const result = await runCli(['run', '--target', gateway.url, ...LOGIN, '--contract', CONTRACT, '--report-dir', join(RESULTS, 'refused')], { STAGING_PASSWORD: 'wrong' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/\[AUTH_FAILED\] the basic login as ci \(POST http:\/\/127\.0\.0\.1:\d+\/auth\/password-login\) answered HTTP 401/);
    expect(result.stdout).not.toContain('running');
    const cookie = await runCli(['run', '--target', gateway.url, '--auth', 'ticket', '--cookie-env', 'STAGING_COOKIE', '--contract', CONTRACT, '--report-dir', join(RESULTS, 'refused')], { STAGING_COOKIE: 'hermes_session=stale' });
    expect(cookie.code).toBe(2);
    expect(cookie.stderr).toMatch(/\[AUTH_FAILED\] POST http:\/\/127\.0\.0\.1:\d+\/api\/auth\/ws-ticket answered HTTP 401/);
    expect(`${cookie.stdout}${cookie.stderr}`).not.toContain('stale');
  } finally {
    await gateway.close();
  }
});

test('`serve --auth gated` takes the password from the environment only and says so in /api/status; the run discovers the mode', async () => {
  const served = await serveCli(['--auth', 'gated', '--basic-user', 'ci', '--basic-password-env', 'STAGING_PASSWORD', '--contract', CONTRACT], ENV);
  try {
    const status = (await (await fetch(served.url.replace('ws:', 'http:').replace('/api/ws', '/api/status'))).json()) as Record<string, unknown>;
    expect(status).toMatchObject({ auth_required: true, auth_providers: ['basic'] });
    const result = await runCli(['run', '--target', served.url, '--login', 'basic', '--user', 'ci', '--password-env', 'STAGING_PASSWORD', '--contract', CONTRACT, '--grep', '@method:session\\.list(?=\\s|$)', '--seed', '1', '--runs', '3', '--report-dir', join(RESULTS, 'served')], ENV);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('contract-gate: auth: fresh ticket per connection (basic login as ci, presented as ?ticket=)');
  } finally {
    served.stop();
  }
  const missing = await runCli(['serve', '--auth', 'gated', '--basic-user', 'ci', '--basic-password-env', 'NOT_SET_ANYWHERE']);
  expect(missing.code).toBe(2);
  expect(missing.stderr).toContain('--basic-password-env NOT_SET_ANYWHERE: the environment variable NOT_SET_ANYWHERE is not set or empty');
});

test('a replay of a gated run mints its own ticket: against the recorded external target, and against a new embedded gated gateway', async () => {
  test.setTimeout(120_000);
  const gateway = await gatedGateway(['params.unknown-keys-accepted']);
  const reportDir = join(RESULTS, 'replay');
  rmSync(reportDir, { recursive: true, force: true });
  try {
    const grep = ['--grep', '@method:session\\.set_hidden(?=\\s|$)'];
    const run = await runCli(['run', '--target', gateway.url, ...LOGIN, '--ticket-via', 'subprotocol', ...FAST, ...grep, '--report-dir', reportDir], ENV);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const file = join(reportDir, 'replays', 'session.set_hidden--params.unknown-key-rejected.json');
    expect(existsSync(file)).toBe(true);
    expect(JSON.parse(readFileSync(file, 'utf8')).auth).toEqual({ mode: 'ticket', login: { kind: 'basic', user: 'ci', passwordEnv: 'STAGING_PASSWORD' }, via: 'subprotocol' });
    const before = gateway.auth!.counters;
    const replay = await runCli(['replay', file], ENV);
    expect(replay.code, replay.stdout + replay.stderr).toBe(1);
    expect(replay.stdout).toContain('REPRODUCED');
    expect(gateway.auth!.counters.ticketsMinted).toBe(before.ticketsMinted + 1);
    expect(gateway.auth!.counters.connectionsOpened).toBe(before.connectionsOpened + 1);
    expectNoSecret(reportDir, [PASSWORD, TOKEN], gateway.auth!.issuedTickets);

    const embeddedDir = join(RESULTS, 'replay-embedded');
    const embedded = await runCli(['run', '--embedded-auth', 'gated', '--fault', 'params.unknown-keys-accepted', ...FAST, ...grep, '--report-dir', embeddedDir]);
    expect(embedded.code, embedded.stdout + embedded.stderr).toBe(1);
    const embeddedFile = join(embeddedDir, 'replays', 'session.set_hidden--params.unknown-key-rejected.json');
    expect(JSON.parse(readFileSync(embeddedFile, 'utf8')).gateway.gated).toBe(true);
    const again = await runCli(['replay', embeddedFile]);
    expect(again.code, again.stdout + again.stderr).toBe(1);
    expect(again.stdout).toContain('REPRODUCED');
  } finally {
    await gateway.close();
  }
});
