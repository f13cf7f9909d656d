import { choice, duration, envName, flag, integer, list, type OptionTable, path, text } from '../optionTypes.js';

/** The options of `contract-gate serve` that `run` does not share (those are in runOptions.ts). */
export const SERVE_OPTIONS = {
  serveExtension: {
    flag: 'extension',
    type: list(path('file')),
    help: 'extension document(s) served beside the contract (repeatable)',
    commands: ['serve'],
    defaultFrom: { text: "the profile's default extensions, when no --contract is given", by: 'profile' },
  },
  hooks: { type: flag(), help: 'do not serve the session-hooks extension (hooks.subscribe, session.reset)', commands: ['serve'], negate: true, default: true },
  host: { type: text('host'), help: 'interface to listen on', commands: ['serve', 'proxy'], default: '127.0.0.1' },
  port: { type: integer({ min: 0, max: 65535 }), help: 'port (0 = any free port)', commands: ['serve'], default: 0 },
  token: {
    type: text('token'),
    help: 'require ?token=<token> (visible in process lists: prefer --token-env)',
    commands: ['serve'],
    secret: 'literal',
  },
  allowedOrigin: {
    type: list(text('origin')),
    help: 'accept WebSocket upgrades only from these Origin values (repeatable; others close 4403); gated: origins accepted besides the bound host',
    commands: ['serve'],
  },
  serveAuth: {
    flag: 'auth',
    type: choice(['loopback', 'gated'], 'mode'),
    help: 'loopback (?token= when --token/--token-env is set) or gated (basic login, single-use tickets, Host/Origin guard; the legacy token is refused)',
    commands: ['serve'],
    default: 'loopback',
  },
  basicUser: { type: text('name'), help: 'gated: user name of the basic login', commands: ['serve'] },
  basicPasswordEnv: { type: envName(), help: 'gated: name of the environment variable holding the basic login password', commands: ['serve'], secret: 'name' },
  ticketTtlMs: { type: duration(1), help: 'gated: time to live of a WebSocket ticket', commands: ['serve'], defaultFrom: { text: '30000', by: 'run' } },
  internalCredentialEnv: {
    type: envName(),
    help: 'gated: name of the environment variable holding the ?internal= credential',
    commands: ['serve'],
    secret: 'name',
    defaultFrom: { text: 'a random one, never shown', by: 'run' },
  },
  dataDir: { type: path('dir'), help: 'where session.save and spawn-tree files go', commands: ['serve'], defaultFrom: { text: 'a temporary directory', by: 'run' } },
  buildDelay: { type: duration(0), help: 'delay of the agent build after session.create', commands: ['serve'], defaultFrom: { text: '50', by: 'run' } },
  orphanGrace: { type: duration(0), help: 'grace window before a detached session is reaped', commands: ['serve'], defaultFrom: { text: '30000', by: 'run' } },
  serveSeed: { flag: 'seed', type: integer({}), help: 'seed of the schema-driven responder (methods without a handler of their own)', commands: ['serve'] },
  serverRequestTimeoutMs: {
    type: duration(0),
    help: 'withdraw an unanswered server→client request (request.cancel, reason timeout) after this long; 0 never',
    commands: ['serve'],
    defaultFrom: { text: '30000', by: 'run' },
  },
  stdio: {
    type: flag(),
    help: 'speak newline-delimited JSON-RPC on stdin/stdout instead of listening (as a terminal client spawns its gateway); exits when stdin ends',
    commands: ['serve'],
    default: false,
  },
  plugin: { type: list(text('NAME[:ARG]')), help: 'install a built-in session hook plugin (repeatable, in order; listed below)', commands: ['serve'] },
  pluginsConfig: {
    type: path('file'),
    help: 'JSON: a list of "NAME[:ARG]" or {name, arg?, priority?, mode?}, or {"plugins": [...], "hookTimeoutMs": n}; installed before --plugin',
    commands: ['serve'],
  },
  hookTimeout: {
    type: duration(1),
    help: 'time limit of one hook handler; one that exceeds it is logged and skipped',
    commands: ['serve'],
    defaultFrom: { text: '5000', by: 'run' },
  },
  listFaults: { type: flag(), help: 'print every fault: name, what it breaks, the check meant to catch it; then exit', commands: ['serve'], default: false },
  verbose: { type: flag(), help: 'log gateway events to stderr', commands: ['serve'], default: false },
} as const satisfies OptionTable;
