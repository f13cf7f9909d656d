import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
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
import { validatorStore } from '../../core/validatorCache.js';
import { secretFromEnv } from '../../src/client/authSettings.js';
import { EXIT } from '../exitCodes.js';
import { resolveProfileDefaults } from '../../profiles/profileDefaults.js';
import { loadContractSync } from '../../src/contracts/loadContract.js';
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

/** `contract-gate serve`. */
export async function serveAction(_positionals: string[], options: Record<string, unknown>): Promise<number> {
  return serveCommand(options as unknown as ServeOptions);
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
  const given = options.contract?.map((p) => resolve(p));
  const defaults = await resolveProfileDefaults({ contract: given }, (path) => loadContractSync(path, { validate: false }));
  const extensions = options.extension?.map((p) => resolve(p)) ?? (options.hooks && !given?.length ? defaults.extensions : []);
  const contracts = defaults.contracts;
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
    validatorStore,
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
