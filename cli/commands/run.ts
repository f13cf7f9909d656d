import { Command } from 'commander';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type AuthSettings, connectionAuthFrom, describeAuth } from '../../src/client/authSettings.js';
import type { ConnectionAuth } from '../../src/client/connectionAuth.js';
import { connectTarget } from '../../src/client/connectTarget.js';
import { HttpRpcClient } from '../../src/client/httpClient.js';
import { Redactor } from '../../src/client/redact.js';
import { isHttpTarget, tokenInUrl } from '../../src/client/targetUrl.js';
import type { Contract } from '../../src/contracts/index.js';
import { loadContract } from '../../src/contracts/loadContract.js';
import { parseBaseline } from '../../src/report/baseline.js';
import { parseMatrixJson } from '../../src/report/renderJson.js';
import { HarnessError } from '../../core/index.js';
import { loadRunSettings } from '../../src/config/loadRunSettings.js';
import type { RunSettings } from '../../src/config/optionTable.js';
import { allChecks } from '../../profiles/index.js';
import { resolveProfileDefaults } from '../../profiles/profileDefaults.js';
import { GENERIC_CATALOGUE } from '../../src/checks/checkCatalogue.js';
import type { Profile } from '../../src/profile/profile.js';
import { resolveEmbeddedAuth, resolveExternalAuth } from '../../src/config/resolveAuth.js';
import type { RunConfig } from '../../src/config/runConfig.js';
import { RUN_CONFIG_ENV, writeRunConfig } from '../../src/config/runConfigFile.js';
import { buildRunConfig, mergeRunSettings } from '../../src/config/runSettings.js';
import { EXIT } from '../exitCodes.js';
import { addTableOptions, givenOptions } from '../lib/commanderOptions.js';
import { SUITES_CONFIG } from '../lib/repoPaths.js';
import { runPlaywright } from '../lib/runPlaywright.js';
import { tokenFromEnv } from '../lib/tokens.js';

/** Report entries a run writes; removed first so a reused folder never mixes two runs. */
const GENERATED = ['matrix.json', 'matrix.md', 'matrix.html', 'junit.xml', 'allure-results', 'transcripts', 'replays', 'test-output', 'blob', 'run-config.json'];

async function preflight(target: string, profile: Profile, auth: ConnectionAuth, redactor: Redactor): Promise<void> {
  if (isHttpTarget(target)) {
    const exchange = await new HttpRpcClient({ url: target, auth, requestTimeoutMs: 5_000 }).call('rpc.discover', []);
    if (exchange.failure && exchange.failure.code !== 'UNPARSEABLE_FRAME') {
      throw new HarnessError('GATEWAY_UNREACHABLE', `target ${redactor.redactUrl(target)} does not answer JSON-RPC over HTTP: ${exchange.failure.message}`);
    }
    return;
  }
  const client = await connectTarget({ target, auth, dialect: profile.wire.dialect, readyTimeoutMs: Math.min(1_000, profile.wire.readyTimeoutMs), connectTimeoutMs: 10_000 });
  await client.close();
}

/** The settings `contract-gate run <args>` would act on from its arguments alone (no configuration file). */
export function parseRunOptions(args: readonly string[]): RunSettings {
  const command = addTableOptions(new Command('run'), 'run').exitOverride();
  command.parse([...args], { from: 'user' });
  return mergeRunSettings([{ values: givenOptions(command), baseDir: process.cwd() }]);
}

/** `contract-gate run`: the command line over the configuration file, then the run. */
export async function runAction(_positionals: string[], given: Record<string, unknown>): Promise<number> {
  const { settings, configFile, project } = await loadRunSettings(given);
  if (configFile) process.stdout.write(`contract-gate: configuration ${configFile}${project ? `, project ${project}` : ''}\n`);
  return runCommand(settings);
}

/** Checks the settings and decides the run configuration (contracts loaded and validated, target reachable). */
export async function runConfigFor(settings: RunSettings): Promise<RunConfig> {
  const token = tokenFromEnv(settings.tokenEnv);
  if (settings.target && tokenInUrl(settings.target)) {
    throw new HarnessError('USAGE', '--target carries a token in its URL, where process lists and reports would show it: pass the URL without it and name the variable that holds it with --token-env');
  }
  const unset = settings.secretEnv.filter((name) => !process.env[name]);
  if (unset.length > 0) throw new HarnessError('USAGE', `--secret-env ${unset.join(', ')}: not set in the environment (name the variables that hold the secrets)`);
  const redactor = new Redactor([token]);
  if (settings.target && settings.fault.length) throw new HarnessError('USAGE', '--fault switches the embedded gateway; it cannot be combined with --target');
  const loaded = new Map<string, Promise<Contract>>();
  const load = (path: string): Promise<Contract> => {
    if (!loaded.has(path)) loaded.set(path, loadContract(path));
    return loaded.get(path) as Promise<Contract>;
  };
  const { resolved, ...profile } = await resolveProfileDefaults(settings, load);
  if (!settings.target) {
    if (!resolved.referenceGateway) throw new HarnessError('USAGE', `the ${resolved.name} profile embeds no reference gateway: pass --target`);
    resolved.referenceGateway.assertFaults(settings.fault);
  }
  const contracts = await Promise.all(profile.contracts.map(load));
  await Promise.all([...profile.extensions, ...(settings.clientContract ? [settings.clientContract] : [])].map(load));
  const checks = GENERIC_CATALOGUE.with(resolved.checks);
  if (settings.baseline) parseBaseline(readFileSync(settings.baseline, 'utf8'), settings.baseline, (id) => checks.has(id));
  if (settings.bindings && settings.bindings !== 'none' && settings.bindings !== 'auto' && !existsSync(settings.bindings)) throw new HarnessError('USAGE', `--bindings ${settings.bindings}: no such file`);
  const say = (line: string): void => void process.stdout.write(`contract-gate: ${line}\n`);
  if (settings.target && settings.embeddedAuth === 'gated') throw new HarnessError('USAGE', '--embedded-auth sets the mode of the embedded gateway; it cannot be combined with --target');
  let auth: AuthSettings | undefined;
  let tokenEnv = settings.tokenEnv;
  let runEnv: Record<string, string> = {};
  if (settings.target) auth = await resolveExternalAuth(settings.target, resolved, settings, say);
  else ({ settings: auth, env: runEnv, tokenEnv } = resolveEmbeddedAuth(settings.embeddedAuth === 'gated', settings));
  if (auth && auth.mode !== 'token') say(`auth: ${describeAuth(auth)}`);
  if (settings.target) await preflight(settings.target, resolved, connectionAuthFrom(auth ?? { mode: 'token' }, token, resolved), redactor);
  // Credentials made up for the embedded gateway reach the workers (and an in-process run) by environment, never by argument.
  Object.assign(process.env, runEnv);

  const label = settings.target ?? `embedded reference gateway (${contracts.map((c) => `${c.title} ${c.version}`).join(', ')})`;
  return buildRunConfig(settings, {
    target: settings.target ? { kind: 'external', url: settings.target, label } : { kind: 'embedded', label },
    profile,
    seed: settings.seed ?? Math.floor(Math.random() * 2 ** 31),
    tokenEnv,
    auth,
  });
}

export async function runCommand(settings: RunSettings): Promise<number> {
  const config = await runConfigFor(settings);
  const { reportDir, seed } = config;
  mkdirSync(reportDir, { recursive: true });
  for (const entry of GENERATED) rmSync(join(reportDir, entry), { recursive: true, force: true });
  process.stdout.write(`contract-gate: target ${config.target.label}; seed ${seed}${settings.seed === undefined ? ' (pass --seed to reproduce)' : ''}; report ${reportDir}\n`);
  const configPath = writeRunConfig(config);
  const playwrightExit = await runPlaywright(['test', '-c', SUITES_CONFIG], { [RUN_CONFIG_ENV]: configPath });
  const exitCode = verdictOf(reportDir, playwrightExit);
  if (settings.baseline) warnUnmatchedBaseline(settings.baseline, reportDir);
  return exitCode;
}

/** A baseline entry that names no cell of this run can never turn stale, so it is pointed out (not failed: --grep and --shard run subsets). */
function warnUnmatchedBaseline(baselinePath: string, reportDir: string): void {
  const matrixPath = join(reportDir, 'matrix.json');
  if (!existsSync(matrixPath)) return;
  const present = new Set(parseMatrixJson(readFileSync(matrixPath, 'utf8'), matrixPath).cells.map((c) => `${c.method}\u0000${c.check}`));
  const known = allChecks();
  for (const entry of parseBaseline(readFileSync(baselinePath, 'utf8'), baselinePath, (id) => known.has(id))) {
    if (!present.has(`${entry.method}\u0000${entry.check}`)) {
      process.stderr.write(`contract-gate: warning: baseline entry ${entry.method} × ${entry.check} matches no check of this run (renamed or removed check, or filtered out by --grep/--shard)\n`);
    }
  }
}

/** The exit code from the matrix the run wrote (the gate's source of truth) and Playwright's own exit code. */
function verdictOf(reportDir: string, playwrightExit: number): number {
  const matrixPath = join(reportDir, 'matrix.json');
  if (!existsSync(matrixPath)) {
    process.stderr.write(`contract-gate: no matrix was written to ${matrixPath} (Playwright exited ${playwrightExit}); see the output above\n`);
    return EXIT.USAGE;
  }
  const matrix = parseMatrixJson(readFileSync(matrixPath, 'utf8'), matrixPath);
  const { summary, coverage } = matrix;
  if (matrix.targetDown) {
    const down = matrix.targetDown;
    process.stdout.write(`contract-gate: ${down.kind === 'slow' ? 'TARGET SLOW' : 'TARGET DOWN'} after ${down.subject} × ${down.check}: ${down.frame}\n`);
    if (down.replay) process.stdout.write(`contract-gate: replay: npx contract-gate replay ${join(reportDir, down.replay)} --target URL\n`);
  }
  // Cells that never ran leave the gate without an answer: that is never a pass.
  const word = matrix.verdict === 'fail' ? 'FAIL' : summary.notRun > 0 ? 'INCOMPLETE' : 'PASS';
  if (matrix.traffic) {
    const { requestsSent, peakInFlight, timeouts } = matrix.traffic;
    process.stdout.write(`contract-gate: traffic — ${requestsSent} requests sent, peak ${peakInFlight} in flight per worker, ${timeouts} timed out\n`);
  }
  process.stdout.write(
    `contract-gate: ${word} — ${summary.pass} pass, ${summary.fail} fail, ${summary.knownFail} known, ${summary.stale} stale, ${summary.na} n/a, ${summary.notRun} not run; ` +
      `coverage ${coverage.reached.length}/${coverage.methods} methods${coverage.events?.total ? `, ${coverage.events.seen.length}/${coverage.events.total} events` : ''}${coverage.serverRequests?.total ? `, ${coverage.serverRequests.seen.length}/${coverage.serverRequests.total} server requests` : ''}; matrix ${join(reportDir, 'matrix.md')}\n`,
  );
  if (matrix.verdict === 'fail' || matrix.targetDown) return EXIT.FAILED;
  if (summary.notRun > 0) {
    process.stderr.write(`contract-gate: ${summary.notRun} cell(s) did not run (Playwright exited ${playwrightExit}); see the output above\n`);
    return EXIT.USAGE;
  }
  return playwrightExit === 0 ? EXIT.OK : EXIT.FAILED;
}
