import { type Command, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  BUILTIN_PLUGINS,
  GATEWAY_FAULTS,
  parsePluginArgument,
  parsePluginsConfig,
  type PluginConfig,
  startGateway,
  startStdioGateway,
  type GatedAuthOptions,
  type GatewayOptions,
  UnknownFaultError,
  assertFaultNames,
} from '../../gateway/index.js';
import { HarnessError } from '../../core/index.js';
import { secretFromEnv } from '../../src/client/authSettings.js';
import { EXIT } from '../exitCodes.js';
import { collect, integerOption } from '../lib/options.js';
import { DEFAULT_PROFILE } from '../../profiles/index.js';
import { tokenFromEnv } from '../lib/tokens.js';

interface ServeOptions {
  auth?: 'loopback' | 'gated';
  basicUser?: string;
  basicPasswordEnv?: string;
  ticketTtlMs?: number;
  internalCredentialEnv?: string;
  contract?: string[];
  extension?: string[];
  hooks: boolean;
  host: string;
  port: number;
  token?: string;
  tokenEnv?: string;
  allowedOrigin?: string[];
  legacyMessages?: boolean;
  dataDir?: string;
  buildDelay?: number;
  orphanGrace?: number;
  seed?: number;
  serverRequestTimeoutMs?: number;
  stdio?: boolean;
  plugin?: string[];
  pluginsConfig?: string;
  hookTimeout?: number;
  fault?: string[];
  listFaults?: boolean;
  verbose?: boolean;
}

export function registerServeCommand(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('serve')
    .description('Serve the reference gateway (/api/ws and /api/rpc) until SIGINT/SIGTERM.')
    .option('--contract <file>', `OpenRPC document(s) to serve (repeatable; default: the ${DEFAULT_PROFILE.name} profile's documents)`, collect)
    .option('--extension <file>', 'extension document(s) served beside the contract (repeatable)', collect)
    .option('--no-hooks', 'do not serve the session-hooks extension (hooks.subscribe, session.reset)')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <n>', 'port (0 = any free port)', integerOption('--port', 0), 0)
    .option('--token <token>', 'require ?token=<token> (visible in process lists: prefer --token-env)')
    .option('--token-env <var>', 'name of the environment variable holding the token to require')
    .option('--allowed-origin <origin>', 'accept WebSocket upgrades only from these Origin values (repeatable; others close 4403); gated: origins accepted besides the bound host', collect)
    .addOption(new Option('--auth <mode>', 'loopback (default: ?token= when --token/--token-env is set) or gated (basic login, single-use tickets, Host/Origin guard; the legacy token is refused)').choices(['loopback', 'gated']))
    .option('--basic-user <name>', 'gated: user name of the basic login')
    .option('--basic-password-env <var>', 'gated: name of the environment variable holding the basic login password')
    .option('--ticket-ttl-ms <ms>', 'gated: time to live of a WebSocket ticket (default 30000)', integerOption('--ticket-ttl-ms', 1))
    .option('--internal-credential-env <var>', 'gated: name of the environment variable holding the ?internal= credential (default: a random one, never shown)')
    .option('--legacy-messages', 'answer with the v0.21.3 wording (no out-of-sync suffix on 4000 and -32601)')
    .option('--data-dir <dir>', 'where session.save and spawn-tree files go (default: a temporary directory)')
    .option('--build-delay <ms>', 'delay of the agent build after session.create (default 50)', integerOption('--build-delay', 0))
    .option('--orphan-grace <ms>', 'grace window before a detached session is reaped (default 30000)', integerOption('--orphan-grace', 0))
    .option('--seed <n>', 'seed of the schema-driven responder (methods without a handler of their own)', integerOption('--seed'))
    .option('--server-request-timeout-ms <ms>', 'withdraw an unanswered server→client request (request.cancel, reason timeout) after this long; 0 never (default 30000)', integerOption('--server-request-timeout-ms', 0))
    .option('--stdio', 'speak newline-delimited JSON-RPC on stdin/stdout instead of listening (as a terminal client spawns its gateway); exits when stdin ends')
    .option('--plugin <NAME[:ARG]>', 'install a built-in session hook plugin (repeatable, in order; listed below)', collect)
    .option('--plugins-config <file>', 'JSON: a list of "NAME[:ARG]" or {name, arg?, priority?, mode?}, or {"plugins": [...], "hookTimeoutMs": n}; installed before --plugin')
    .option('--hook-timeout <ms>', 'time limit of one hook handler; one that exceeds it is logged and skipped (default 5000)', integerOption('--hook-timeout', 1))
    .option('--fault <name>', 'switch a deliberate fault on (repeatable; self-test of the harness; see --list-faults)', collect)
    .option('--list-faults', 'print every fault: name, what it breaks, the check meant to catch it; then exit')
    .option('--verbose', 'log gateway events to stderr')
    .addHelpText(
      'after',
      `
Prints exactly one line, "contract-gate gateway listening on ws://HOST:PORT/api/ws", once it accepts
connections. With --stdio, stdout is the wire instead: gateway.ready, then one JSON value per line (logs go to
stderr with --verbose); it runs until stdin ends. Started with an older contract (one from before a key
existed) it behaves as an older backend: keys that document does not declare are rejected with 4000.

Built-in session hook plugins (meant for tests; priority 50; a config entry may set priority and mode):
${Object.values(BUILTIN_PLUGINS)
  .map((plugin) => `  ${plugin.usage.padEnd(30)} ${plugin.summary}`)
  .join('\n')}
A handler that throws or exceeds --hook-timeout is logged (see --verbose) and skipped; clients see no difference.

Faults (--fault NAME) make the gateway deliberately wrong in one way each, to show that the check meant to catch
it fails: \`contract-gate run --fault NAME\` starts the embedded gateway with it. --list-faults prints them.`,
    )
    .action(async (options: ServeOptions) => {
      setExitCode(await serveCommand(options));
    });
}

/** The plugins of `--plugins-config` (first) and `--plugin` (then), and the hook time limit. */
export function servePlugins(options: Pick<ServeOptions, 'plugin' | 'pluginsConfig' | 'hookTimeout'>): { plugins: PluginConfig[]; hookTimeoutMs?: number } {
  try {
    let fromFile: { plugins: PluginConfig[]; hookTimeoutMs?: number } = { plugins: [] };
    if (options.pluginsConfig) {
      const path = resolve(options.pluginsConfig);
      let json: unknown;
      try {
        json = JSON.parse(readFileSync(path, 'utf8'));
      } catch (error) {
        throw new Error(`--plugins-config ${path} is not readable JSON (${(error as Error).message})`);
      }
      fromFile = parsePluginsConfig(json, `--plugins-config ${path}`);
    }
    const plugins = [...fromFile.plugins, ...(options.plugin ?? []).map(parsePluginArgument)];
    const hookTimeoutMs = options.hookTimeout ?? fromFile.hookTimeoutMs;
    return { plugins, ...(hookTimeoutMs !== undefined ? { hookTimeoutMs } : {}) };
  } catch (error) {
    throw new HarnessError('USAGE', (error as Error).message, { cause: error });
  }
}

/** One line per fault: name, what it breaks, the check meant to catch it. */
export function faultList(): string {
  const width = Math.max(...GATEWAY_FAULTS.map((fault) => fault.name.length));
  return GATEWAY_FAULTS.map((fault) => `${fault.name.padEnd(width)}  ${fault.breaks} (caught by ${fault.check})`).join('\n') + '\n';
}

export async function serveCommand(options: ServeOptions): Promise<number> {
  if (options.listFaults) {
    process.stdout.write(faultList());
    return EXIT.OK;
  }
  if (options.token && options.tokenEnv) throw new HarnessError('USAGE', 'pass either --token or --token-env, not both');
  try {
    assertFaultNames(options.fault ?? []);
  } catch (error) {
    if (error instanceof UnknownFaultError) throw new HarnessError('USAGE', `--fault: ${error.message}`, { cause: error });
    throw error;
  }
  const hookSetup = servePlugins(options);
  const gated = gatedOptions(options);
  const token = options.token ?? tokenFromEnv(options.tokenEnv);
  const contracts = (options.contract?.length ? options.contract : DEFAULT_PROFILE.defaultContracts).map((p) => resolve(p));
  const extensions = (options.extension ?? (options.hooks && !options.contract?.length ? DEFAULT_PROFILE.defaultExtensions([]) : [])).map((p) => resolve(p));
  const gatewayOptions: GatewayOptions = {
    contractPaths: [...contracts, ...extensions],
    host: options.host,
    port: options.port,
    ...(token ? { token } : {}),
    ...(options.allowedOrigin?.length ? { allowedOrigins: options.allowedOrigin } : {}),
    ...(gated ? { auth: gated } : {}),
    ...(options.legacyMessages ? { legacyMessages: true } : {}),
    ...(options.dataDir ? { dataDir: resolve(options.dataDir) } : {}),
    ...(options.buildDelay !== undefined ? { buildDelayMs: options.buildDelay } : {}),
    ...(options.orphanGrace !== undefined ? { orphanGraceMs: options.orphanGrace } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.serverRequestTimeoutMs !== undefined ? { serverRequestTimeoutMs: options.serverRequestTimeoutMs } : {}),
    ...(hookSetup.plugins.length > 0 ? { plugins: hookSetup.plugins } : {}),
    ...(hookSetup.hookTimeoutMs !== undefined ? { hookTimeoutMs: hookSetup.hookTimeoutMs } : {}),
    ...(options.fault?.length ? { faults: options.fault } : {}),
    ...(options.verbose ? { log: (line: string) => process.stderr.write(`gateway: ${line}\n`) } : {}),
  };
  if (options.stdio) return serveStdio(options, gatewayOptions);
  let gateway;
  try {
    gateway = await startGateway(gatewayOptions);
  } catch (error) {
    if (HarnessError.is(error)) throw error;
    throw new HarnessError('USAGE', `cannot start the gateway: ${(error as Error).message}`, { cause: error });
  }
  process.stdout.write(`contract-gate gateway listening on ${gateway.url}\n`);
  if (gated) process.stderr.write(`contract-gate: gated mode: basic login as ${gated.basicUser} at POST /auth/password-login, tickets at POST /api/auth/ws-ticket (TTL ${gateway.auth?.ticketTtlMs ?? 0} ms)\n`);
  if (options.fault?.length) process.stderr.write(`contract-gate: faults switched on: ${options.fault.join(', ')}\n`);
  await new Promise<void>((resolveStop) => {
    const stop = (): void => resolveStop();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await gateway.close();
  return EXIT.OK;
}

/** `serve --auth gated`: the basic account and ticket options, secrets from the environment only. */
function gatedOptions(options: ServeOptions): GatedAuthOptions | undefined {
  const gatedOnly = [options.basicUser, options.basicPasswordEnv, options.ticketTtlMs, options.internalCredentialEnv].some((value) => value !== undefined);
  if (options.auth !== 'gated') {
    if (gatedOnly) throw new HarnessError('USAGE', '--basic-user, --basic-password-env, --ticket-ttl-ms and --internal-credential-env belong to --auth gated');
    return undefined;
  }
  if (!options.basicUser || !options.basicPasswordEnv) throw new HarnessError('USAGE', '--auth gated needs --basic-user USER and --basic-password-env VAR (the NAME of the variable holding the password)');
  return {
    basicUser: options.basicUser,
    basicPassword: secretFromEnv(options.basicPasswordEnv, '--basic-password-env'),
    ...(options.ticketTtlMs !== undefined ? { ticketTtlMs: options.ticketTtlMs } : {}),
    ...(options.internalCredentialEnv ? { internalCredential: secretFromEnv(options.internalCredentialEnv, '--internal-credential-env') } : {}),
  };
}

/** `serve --stdio`: the wire is stdin/stdout; nothing else is written to stdout. */
async function serveStdio(options: ServeOptions, gatewayOptions: GatewayOptions): Promise<number> {
  if (options.token || options.tokenEnv || options.allowedOrigin?.length || options.auth === 'gated') {
    throw new HarnessError('USAGE', '--stdio takes no --token, --token-env or --allowed-origin: a stdio peer is the process that spawned the gateway');
  }
  const { host: _host, port: _port, token: _token, allowedOrigins: _origins, ...stdioOptions } = gatewayOptions;
  let gateway;
  try {
    gateway = await startStdioGateway(stdioOptions);
  } catch (error) {
    if (HarnessError.is(error)) throw error;
    throw new HarnessError('USAGE', `cannot start the gateway: ${(error as Error).message}`, { cause: error });
  }
  if (options.fault?.length) process.stderr.write(`contract-gate: faults switched on: ${options.fault.join(', ')}\n`);
  await new Promise<void>((resolveStop) => {
    void gateway.ended.then(resolveStop);
    process.once('SIGINT', resolveStop);
    process.once('SIGTERM', resolveStop);
  });
  await gateway.close();
  return EXIT.OK;
}
