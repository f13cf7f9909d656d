import { choice, duration, envName, flag, integer, list, type OptionTable, path, regex, shard, text } from '../optionTypes.js';
import { CHILD_PROCESS_FROM_METHOD_RUNS } from '../parallelism.js';

const PROFILE_DEFAULT = { by: 'profile' } as const;

/**
 * The options of `contract-gate run` (and the ones other commands share with it). Every one of them is also a key
 * of the configuration file, under the same name; `field` names the run-configuration field a value travels in
 * when that is not the key.
 */
export const RUN_OPTIONS = {
  config: {
    type: path('file'),
    help: 'configuration file (default: contract-gate.config.{ts,mjs,json}, looked for from the working directory upward)',
    commands: ['run'],
    env: 'CONTRACT_GATE_CONFIG',
    field: false,
    cliOnly: true,
  },
  project: {
    type: text('name'),
    help: 'the named project of the configuration file to run (its keys override the top level)',
    commands: ['run'],
    env: 'CONTRACT_GATE_PROJECT',
    field: false,
    cliOnly: true,
  },
  target: {
    type: text('url'),
    help: "gateway to test: ws(s)://host:port/api/ws, http(s)://host:port/api/rpc, or stdio:'<command>' (newline-delimited JSON-RPC on a spawned command's stdin/stdout; a process serves one connection at a time, see --no-stdio-reuse)",
    commands: ['run'],
    defaultFrom: { text: 'start the embedded reference gateway', by: 'run' },
    field: false,
  },
  contract: {
    type: list(path('file', { url: true })),
    help: 'OpenRPC document(s) of the target, paths or http(s) URLs (repeatable); the first one picks the profile',
    commands: ['run'],
    defaultFrom: { text: "the profile's default documents", ...PROFILE_DEFAULT },
    field: 'contracts',
  },
  clientContract: {
    type: path('file'),
    help: 'contract of the clients in the field: every payload they may send must be accepted (skew gate)',
    commands: ['run', 'proxy'],
  },
  extension: {
    type: list(path('file')),
    help: 'extension document(s) loaded beside the contract (repeatable)',
    commands: ['run'],
    defaultFrom: { text: "the profile's default extensions", ...PROFILE_DEFAULT },
    field: 'extensions',
  },
  profile: {
    type: path('name|file', { names: "a registered profile's name" }),
    help: "the target's profile: a registered profile's name (`contract-gate profiles` lists them), or a JSON codes file extending one (see examples/profiles/eip-1474.json)",
    commands: ['run'],
    defaultFrom: { text: 'the first registered profile that recognises the first contract', ...PROFILE_DEFAULT },
  },
  bindings: {
    type: path('file', { keywords: ['none', 'auto'] }),
    help: 'identifier binding rules; "none" to disable',
    commands: ['run'],
    defaultFrom: { text: "auto, the profile's rules beside the contract", ...PROFILE_DEFAULT },
  },
  baseline: {
    type: path('file'),
    help: 'known failures [{method, check, reason}]: listed failures pass the gate, listed passes fail it as stale',
    commands: ['run'],
  },
  seed: {
    type: integer({ min: -(2 ** 31), max: 2 ** 32 - 1 }),
    help: 'fuzzing seed, a 32-bit integer',
    commands: ['run'],
    defaultFrom: { text: 'random, printed so the run can be reproduced', by: 'run' },
  },
  runs: { type: integer({ min: 1 }), help: 'valid payloads per method, its fixed examples (the smallest payload, every optional key, long strings) first and counted in', commands: ['run'], default: 100 },
  retries: {
    type: integer({ min: 0 }),
    help: 're-run a failed cell up to N more times with the same seed and cases; a cell that passes on a retry is flaky, not pass',
    commands: ['run'],
    default: 0,
  },
  failOnFlaky: { type: flag(), help: 'a flaky cell (failed, then passed on a retry) fails the gate, exit 1; without it a flaky cell exits 0', commands: ['run'], default: false },
  minCoverage: {
    type: integer({ min: 0, max: 100 }, 'percent'),
    help: 'fail the gate (exit 1) when fewer than this percentage of the methods answered at least one valid call with a success (a run that reached none passes no floor); with --shard, the merge applies it; 0: no floor',
    commands: ['run'],
    default: 0,
  },
  budget: {
    type: duration(1000, 'duration'),
    help: 'the run ends within this time (e.g. 90s, 5m): generated valid payloads are spread over the methods by their measured latency, fixed examples and negative cases are never cut, the summary and the matrix say the runs made per method',
    commands: ['run'],
    defaultFrom: { text: 'none: every method gets --runs', by: 'unset' },
    field: 'budgetMs',
  },
  grep: { type: regex(), help: 'only checks whose title or tags match, e.g. "@check:params\\." or "session\\.create"; one that matches no check is a usage error (exit 2)', commands: ['run'] },
  reportDir: {
    type: path('dir'),
    help: 'report folder: matrix.json/.md/.html, junit.xml, allure-results/, transcripts/, replays/, attachments/',
    commands: ['run', 'merge'],
    default: 'contract-gate-report',
  },
  shard: { type: shard(), help: 'run shard i of n (writes a blob report for `contract-gate merge`)', commands: ['run'], field: false },
  runner: {
    type: choice(['in-process', 'playwright'], 'engine'),
    help: `what runs the cells: in-process (the run engine in the command; from ${CHILD_PROCESS_FROM_METHOD_RUNS} method runs on, their reference gateways in one child process) or playwright (Playwright Test workers; a failing cell ends its worker and the next starts afresh, about a second of CPU each); same cells, same verdicts, same report`,
    commands: ['run'],
    default: 'in-process',
  },
  workers: {
    type: integer({ min: 1 }),
    help: 'cells run at once (lanes of the run engine, or Playwright workers)',
    commands: ['run'],
    defaultFrom: { text: 'the run engine: as many lanes as --max-in-flight, at least 2; Playwright: 2 in CI, else half the CPUs', by: 'machine' },
  },
  maxInFlight: { type: integer({ min: 1 }), help: 'requests outstanding at once against the target, split evenly over the workers (at least one each)', commands: ['run'], default: 4 },
  rate: {
    type: integer({ min: 1 }, 'n'),
    help: 'requests per second against the target, over every worker',
    commands: ['run'],
    defaultFrom: { text: 'unlimited', by: 'unset' },
    field: 'ratePerSecond',
  },
  stdioReuse: {
    type: flag(),
    help: 'on a stdio: target, start a process for every connection; by default a connection that ended with every request answered in time leaves its process running for the next method run, so the target starts once per lane instead of once per method',
    commands: ['run'],
    negate: true,
    default: true,
  },
  requestTimeout: { type: duration(100), help: 'per-request timeout', commands: ['run'], default: 5000, field: 'requestTimeoutMs' },
  drainLimit: {
    type: duration(100),
    help: 'after a timeout, how long the target may take to answer a probe before it is slow and the rest is not run',
    commands: ['run'],
    defaultFrom: { text: 'six request timeouts', by: 'derived' },
    field: 'drainLimitMs',
  },
  probe: {
    type: text('method'),
    help: 'after a request timeout, the cheap call (sent without params) the target must answer before anything else is sent to it',
    commands: ['run'],
    defaultFrom: { text: "the profile's cheap call, else a contract method with no params and a read-only name, else an unknown method", by: 'unset' },
    field: 'probeMethod',
  },
  statefulRuns: { type: integer({ min: 1 }), help: 'random call sequences per stateful check; --grep @check:stateful runs them alone', commands: ['run'], default: 25 },
  statefulSteps: { type: integer({ min: 1 }), help: 'at most this many calls per sequence', commands: ['run'], default: 40 },
  statefulDirectives: {
    type: flag(),
    help: 'let sequences use the reference-only directives (/slow, /request) on an external target too (always on for the embedded gateway)',
    commands: ['run'],
    default: false,
  },
  fault: {
    type: list(text('name')),
    help: 'start the embedded gateway with a fault switched on (self-test; repeatable; see `serve --list-faults`)',
    commands: ['run'],
    default: [],
    field: 'faults',
  },
  legacyMessages: { type: flag(), help: 'the embedded gateway speaks the v0.21.3 wording (no out-of-sync suffix)', commands: ['run'], default: false },
  secretEnv: {
    type: list(envName()),
    help: 'environment variable whose value no error answer may carry (envelope.error-hygiene); redacted like the token (repeatable)',
    commands: ['run'],
    default: [],
    secret: 'name',
  },
} as const satisfies OptionTable;

/** How the run authenticates: credentials are always named by environment variable, never given. */
export const AUTH_OPTIONS = {
  tokenEnv: {
    type: envName(),
    help: 'name of the environment variable holding the gateway token (never the token itself)',
    commands: ['run', 'replay'],
    secret: 'name',
  },
  embeddedAuth: {
    type: choice(['loopback', 'gated'], 'mode'),
    help: 'mode of the embedded reference gateway: loopback, or gated (a basic login and tickets made up for the run)',
    commands: ['run'],
    default: 'loopback',
  },
  authChecks: { type: flag(), help: 'run the (auth) row even when the target is not gated', commands: ['run'], default: false },
  auth: {
    type: choice(['token', 'ticket', 'internal'], 'mode'),
    help: 'token (?token=, loopback mode), ticket (a fresh single-use ticket per connection, gated mode) or internal (?internal=)',
    commands: ['run', 'replay'],
    defaultFrom: { text: "discovered from the target's /api/status", by: 'run' },
    field: false,
  },
  login: {
    type: choice(['basic'], 'provider'),
    help: 'how tickets are obtained: basic (POST /auth/password-login with --user and --password-env)',
    commands: ['run', 'replay'],
    field: false,
  },
  user: { type: text('name'), help: 'user name of --login basic', commands: ['run', 'replay'], field: false },
  passwordEnv: { type: envName(), help: 'name of the environment variable holding the --login basic password', commands: ['run', 'replay'], secret: 'name', field: false },
  cookieEnv: {
    type: envName(),
    help: 'name of the environment variable holding an existing dashboard session cookie (name=value; any provider)',
    commands: ['run', 'replay'],
    secret: 'name',
    field: false,
  },
  ticketCommand: {
    type: text('cmd'),
    help: 'shell command printing one fresh ticket per call, for any other provider (GATEWAY_TARGET_URL names the gateway)',
    commands: ['run', 'replay'],
    field: false,
  },
  ticketVia: {
    type: choice(['query', 'subprotocol'], 'how'),
    help: 'how each ticket is presented: query (?ticket=) or subprotocol (the gateway subprotocol, then one carrying the ticket)',
    commands: ['run', 'replay'],
    defaultFrom: { text: 'query (replay: the recorded one)', by: 'run' },
    field: false,
  },
  credentialEnv: {
    type: envName(),
    help: 'name of the environment variable holding the internal credential of --auth internal',
    commands: ['run', 'replay'],
    secret: 'name',
    field: false,
  },
} as const satisfies OptionTable;
