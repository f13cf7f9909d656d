import { Command, Option } from 'commander';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type AuthSettings, connectionAuthFrom, describeAuth } from '../../src/client/authSettings.js';
import type { ConnectionAuth } from '../../src/client/connectionAuth.js';
import { connectTarget } from '../../src/client/connectTarget.js';
import { HttpRpcClient } from '../../src/client/httpClient.js';
import { Redactor } from '../../src/client/redact.js';
import { isHttpTarget, tokenInUrl } from '../../src/client/targetUrl.js';
import { allChecks, assertProfileOption, DEFAULT_PROFILE, PROFILES, resolveProfile } from '../../profiles/index.js';
import type { Profile } from '../../src/profile/profile.js';
import type { Contract } from '../../src/contracts/contractModel.js';
import { loadContract } from '../../src/contracts/loadContract.js';
import { GENERIC_CATALOGUE } from '../../src/checks/checkCatalogue.js';
import { parseBaseline } from '../../src/report/baseline.js';
import { parseMatrixJson } from '../../src/report/renderJson.js';
import { HarnessError } from '../../core/index.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_RUNS, DEFAULT_STATEFUL_RUNS, DEFAULT_STATEFUL_STEPS, type RunConfig, type Shard } from '../../src/config/runConfig.js';
import { RUN_CONFIG_ENV, writeRunConfig } from '../../src/config/runConfigFile.js';
import { EXIT } from '../exitCodes.js';
import { addAuthOptions, type AuthOptions, resolveEmbeddedAuth, resolveExternalAuth } from '../lib/authOptions.js';
import { collect, integerOption, regexOption, seedOption, shardOption } from '../lib/options.js';
import { SUITES_CONFIG } from '../lib/repoPaths.js';
import { runPlaywright } from '../lib/runPlaywright.js';
import { tokenFromEnv } from '../lib/tokens.js';

export interface RunOptions extends AuthOptions {
  embeddedAuth?: 'loopback' | 'gated';
  authChecks?: boolean;
  target?: string;
  contract?: string[];
  clientContract?: string;
  extension?: string[];
  tokenEnv?: string;
  seed?: number;
  runs?: number;
  grep?: string;
  reportDir: string;
  baseline?: string;
  shard?: string;
  fault?: string[];
  profile?: string;
  bindings?: string;
  workers?: number;
  legacyMessages?: boolean;
  requestTimeout?: number;
  secretEnv?: string[];
  maxInFlight?: number;
  rate?: number;
  drainLimit?: number;
  statefulRuns?: number;
  statefulSteps?: number;
  statefulDirectives?: boolean;
}

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

/** The options of `run`, on a command of that name (the CLI's, or a parser of run arguments). */
function defineRunOptions(command: Command): Command {
  command
    .description('Run the conformance suites against a target gateway (default: the embedded reference gateway).')
    .option('--target <url>', "gateway to test: ws(s)://host:port/api/ws, http(s)://host:port/api/rpc, or stdio:'<command>' (newline-delimited JSON-RPC on a spawned command's stdin/stdout, one process per connection) (default: start the embedded reference gateway)")
    .option('--contract <file>', `OpenRPC document of the target (repeatable; a path or an http(s) URL; default: the ${DEFAULT_PROFILE.name} profile's own documents, served by the embedded reference gateway)`, collect)
    .option('--client-contract <file>', 'contract of the clients in the field: every payload they may send must be accepted (skew gate)')
    .option('--extension <file>', "extension document loaded beside the contract (repeatable; default: the profile's own extensions)", collect)
    .option('--token-env <var>', 'name of the environment variable holding the gateway token (never pass the token itself)')
    .addOption(new Option('--embedded-auth <mode>', 'mode of the embedded reference gateway: loopback (default) or gated (a basic login and tickets made up for the run)').choices(['loopback', 'gated']))
    .option('--auth-checks', 'run the (auth) row even when the target is not gated')
    .option('--seed <n>', 'fuzzing seed, a 32-bit integer (default: random, printed so the run can be reproduced)', seedOption)
    .option('--runs <n>', 'generated valid payloads per method, on top of the fixed examples (default 100)', integerOption('--runs', 1))
    .option('--grep <regex>', 'only checks whose title or tags match, e.g. "@check:params\\." or "session\\.create"', regexOption)
    .option('--report-dir <dir>', 'report folder: matrix.json/.md/.html, junit.xml, allure-results/, transcripts/, replays/', 'contract-gate-report')
    .option('--baseline <file>', 'known failures [{method, check, reason}]: listed failures pass the gate, listed passes fail it as stale')
    .option('--shard <i/n>', 'run shard i of n (writes a blob report for `contract-gate merge`)', shardOption)
    .option('--fault <name>', 'start the embedded gateway with a fault switched on (self-test; repeatable; see `serve --list-faults`)', collect)
    .option('--profile <name|file>', `the target's profile: ${PROFILES.map((p) => p.name).join(', ')}, or a JSON codes file extending one (see examples/profiles/eip-1474.json; default: the first profile that recognises the contract)`)
    .option('--bindings <file>', 'identifier binding rules (default: the profile\'s, e.g. bindings.json beside its document; "none" to disable)')
    .option('--workers <n>', 'parallel Playwright workers (default: 2 in CI, else Playwright\'s default)', integerOption('--workers', 1))
    .option('--legacy-messages', 'embedded gateway speaks the v0.21.3 wording (no out-of-sync suffix)')
    .option('--secret-env <var>', 'environment variable whose value no error answer may carry (envelope.error-hygiene); redacted like the token (repeatable)', collect)
    .option('--max-in-flight <n>', 'requests outstanding at once against the target, over every worker (default 4)', integerOption('--max-in-flight', 1))
    .option('--rate <n>', 'requests per second against the target, over every worker (default: unlimited)', integerOption('--rate', 1))
    .option('--drain-limit <ms>', 'after a timeout, how long the target may take to answer a probe before it is slow and the rest is not run (default: six request timeouts)', integerOption('--drain-limit', 100))
    .option('--request-timeout <ms>', 'per-request timeout (default 5000)', integerOption('--request-timeout', 100))
    .option('--stateful-runs <n>', `random call sequences per stateful check (default ${DEFAULT_STATEFUL_RUNS}); --grep @check:stateful runs them alone`, integerOption('--stateful-runs', 1))
    .option('--stateful-steps <n>', `at most this many calls per sequence (default ${DEFAULT_STATEFUL_STEPS})`, integerOption('--stateful-steps', 1))
    .option('--stateful-directives', 'let sequences use the reference-only directives (/slow, /request) on an external target too (always on for the embedded gateway)');
  addAuthOptions(command);
  return command;
}

/** The options `contract-gate run <args>` would act on, parsed exactly as the CLI parses them. */
export function parseRunOptions(args: readonly string[]): RunOptions {
  const command = defineRunOptions(new Command('run')).exitOverride();
  command.parse([...args], { from: 'user' });
  return command.opts<RunOptions>();
}

export function registerRunCommand(program: Command, setExitCode: (code: number) => void): void {
  defineRunOptions(program.command('run'))
    .addHelpText(
      'after',
      `
Exit codes: 0 every check holds or is a known failure in the baseline; 1 a check failed or a baseline entry
is stale; 2 usage or harness error (target unreachable, contract invalid, bad arguments).

Examples:
  npx contract-gate run
  GATEWAY_TOKEN=… npx contract-gate run --target ws://127.0.0.1:9119/api/ws --token-env GATEWAY_TOKEN
  GATEWAY_PASSWORD=… npx contract-gate run --target wss://staging.example/api/ws --auth ticket --login basic --user ci --password-env GATEWAY_PASSWORD
  npx contract-gate run --contract node_modules/@metamask/api-specs/dist/build/openrpc.json
  npx contract-gate run --grep "@check:params\\.unknown-key" --seed 42`,
    )
    .action(async (options: RunOptions) => {
      setExitCode(await runCommand(options));
    });
}

/**
 * What depends on the profile: the documents (the default profile's when none are named), the profile itself
 * (named, a codes file, or the first that recognises the first document) and the extension documents (the
 * profile's own when none are named). Loads and validates every document.
 */
async function resolveProfileDefaults(options: RunOptions): Promise<{ contractPaths: string[]; contracts: Contract[]; profile: Profile; profileOption: string | undefined; extensions: string[] }> {
  const contractPaths = (options.contract?.length ? options.contract : DEFAULT_PROFILE.defaultContracts).map((p) => (/^https?:/.test(p) ? p : resolve(p)));
  if (contractPaths.length === 0) throw new HarnessError('USAGE', 'no contract: pass --contract FILE (the target\'s OpenRPC document)');
  const contracts = await Promise.all(contractPaths.map((path) => loadContract(path)));
  if (options.profile !== undefined) assertProfileOption(options.profile);
  const profileOption = options.profile === undefined ? undefined : PROFILES.some((p) => p.name === options.profile) ? options.profile : resolve(options.profile);
  const profile = resolveProfile(profileOption, contracts[0]);
  const extensions = (options.extension ?? profile.defaultExtensions(contracts)).map((p) => resolve(p));
  return { contractPaths, contracts, profile, profileOption, extensions };
}

/** Checks the options and decides the run configuration (contracts loaded and validated, target reachable). */
export async function runConfigFor(options: RunOptions): Promise<RunConfig> {
  const token = tokenFromEnv(options.tokenEnv);
  if (options.target && tokenInUrl(options.target)) {
    throw new HarnessError('USAGE', '--target carries a token in its URL, where process lists and reports would show it: pass the URL without it and name the variable that holds it with --token-env');
  }
  const unset = (options.secretEnv ?? []).filter((name) => !process.env[name]);
  if (unset.length > 0) throw new HarnessError('USAGE', `--secret-env ${unset.join(', ')}: not set in the environment (name the variables that hold the secrets)`);
  const redactor = new Redactor([token]);
  if (options.target && options.fault?.length) throw new HarnessError('USAGE', '--fault switches the embedded gateway; it cannot be combined with --target');
  const { contractPaths, contracts, profile, profileOption, extensions } = await resolveProfileDefaults(options);
  if (!options.target) {
    if (!profile.referenceGateway) throw new HarnessError('USAGE', `the ${profile.name} profile embeds no reference gateway: pass --target`);
    profile.referenceGateway.assertFaults(options.fault ?? []);
  }
  await Promise.all(extensions.map((path) => loadContract(path)));
  if (options.clientContract) await loadContract(resolve(options.clientContract));
  const checks = GENERIC_CATALOGUE.with(profile.checks);
  if (options.baseline) parseBaseline(readFileSync(resolve(options.baseline), 'utf8'), options.baseline, (id) => checks.has(id));
  if (options.bindings && options.bindings !== 'none' && !existsSync(options.bindings)) throw new HarnessError('USAGE', `--bindings ${options.bindings}: no such file`);
  const say = (line: string): void => void process.stdout.write(`contract-gate: ${line}\n`);
  if (options.target && options.embeddedAuth) throw new HarnessError('USAGE', '--embedded-auth sets the mode of the embedded gateway; it cannot be combined with --target');
  let auth: AuthSettings | undefined;
  let tokenEnv = options.tokenEnv;
  let runEnv: Record<string, string> = {};
  if (options.target) auth = await resolveExternalAuth(options.target, profile, options, say);
  else ({ settings: auth, env: runEnv, tokenEnv } = resolveEmbeddedAuth(options.embeddedAuth === 'gated', options));
  if (auth && auth.mode !== 'token') say(`auth: ${describeAuth(auth)}`);
  if (options.target) await preflight(options.target, profile, connectionAuthFrom(auth ?? { mode: 'token' }, token, profile), redactor);
  // Credentials made up for the embedded gateway reach the workers (and an in-process run) by environment, never by argument.
  Object.assign(process.env, runEnv);

  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const reportDir = resolve(options.reportDir);
  const targetLabel = options.target ?? `embedded reference gateway (${contracts.map((c) => `${c.title} ${c.version}`).join(', ')})`;

  const config: RunConfig = {
    version: 1,
    target: options.target ? { kind: 'external', url: options.target, label: targetLabel } : { kind: 'embedded', label: targetLabel },
    contracts: contractPaths,
    extensions,
    clientContract: options.clientContract ? resolve(options.clientContract) : undefined,
    profile: profileOption && profileOption !== profile.name ? profileOption : profile.name,
    bindings: options.bindings === undefined ? 'auto' : options.bindings === 'none' ? 'none' : resolve(options.bindings),
    seed,
    runs: options.runs ?? DEFAULT_RUNS,
    tokenEnv,
    faults: options.fault ?? [],
    legacyMessages: options.legacyMessages === true,
    reportDir,
    baseline: options.baseline ? resolve(options.baseline) : undefined,
    grep: options.grep,
    shard: options.shard ? parseShard(options.shard) : undefined,
    workers: options.workers,
    requestTimeoutMs: options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT_MS,
    ...(options.secretEnv?.length ? { secretEnv: options.secretEnv } : {}),
    ...(options.maxInFlight ? { maxInFlight: options.maxInFlight } : {}),
    ...(options.rate ? { ratePerSecond: options.rate } : {}),
    ...(options.drainLimit ? { drainLimitMs: options.drainLimit } : {}),
    statefulRuns: options.statefulRuns ?? DEFAULT_STATEFUL_RUNS,
    statefulSteps: options.statefulSteps ?? DEFAULT_STATEFUL_STEPS,
    statefulDirectives: options.statefulDirectives === true,
    ...(auth && auth.mode !== 'token' ? { auth } : {}),
    ...(options.embeddedAuth === 'gated' ? { embeddedAuth: 'gated' as const } : {}),
    ...(options.authChecks ? { authChecks: true } : {}),
  };
  return config;
}

export async function runCommand(options: RunOptions): Promise<number> {
  const config = await runConfigFor(options);
  const { reportDir, seed } = config;
  mkdirSync(reportDir, { recursive: true });
  for (const entry of GENERATED) rmSync(join(reportDir, entry), { recursive: true, force: true });
  process.stdout.write(`contract-gate: target ${config.target.label}; seed ${seed}${options.seed === undefined ? ' (pass --seed to reproduce)' : ''}; report ${reportDir}\n`);
  const configPath = writeRunConfig(config);
  const playwrightExit = await runPlaywright(['test', '-c', SUITES_CONFIG], { [RUN_CONFIG_ENV]: configPath });
  const exitCode = verdictOf(reportDir, playwrightExit);
  if (options.baseline) warnUnmatchedBaseline(resolve(options.baseline), reportDir);
  return exitCode;
}

function parseShard(text: string): Shard {
  const [index, total] = text.split('/').map(Number);
  return { index: index as number, total: total as number };
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
