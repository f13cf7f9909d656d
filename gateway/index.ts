import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { GatedAuth, type AuthCounters, type GatedAuthOptions } from './auth/gatedAuth.js';
import { GATEWAY_CONTRACTS_DIR } from './packageRoot.js';
import type { ContractViolation } from './core/contractChecker.js';
import type { ValidatorStore } from './core/contract/schemaValidators.js';
import { GatewayCore } from './core/gatewayCore.js';
import { DEFAULT_REPLAY_LIMITS } from './core/replayRings.js';
import { assertFaultNames, installFaults } from './faults/faultRegistry.js';
import { DEFAULT_HOOK_TIMEOUT_MS } from './hooks/hookBus.js';
import type { PluginSpec } from './hooks/pluginSpecs.js';
import { GatewayServer, RPC_PATH, WS_PATH } from './transport/gatewayServer.js';
import { attachStdio } from './transport/stdio.js';

export interface GatewayOptions {
  /** Default: the repository's full Hermes document. Methods, server requests and events are the union of the documents'. */
  contractPaths?: string[];
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (ephemeral). */
  port?: number;
  /** When set, /api/ws requires ?token= (else close 4401); /api/rpc takes ?token= or Authorization: Bearer. */
  token?: string;
  /** When set, an Origin header not in the list is refused (WebSocket close 4403, HTTP 403); in gated mode, origins accepted besides the bound host. */
  allowedOrigins?: string[];
  /**
   * Gated mode (a dashboard on a public bind): `/auth/password-login` and `/api/auth/ws-ticket`, one single-use
   * ticket per upgrade (`?ticket=` or the `hermes-gateway-ticket.` subprotocol), `?internal=`, the Host/Origin
   * guard; `token`, if set, is the legacy token gated mode refuses. Default: loopback mode.
   */
  auth?: GatedAuthOptions;
  /** v0.21.3 wording: no out-of-sync suffix on 4000 and -32601. */
  legacyMessages?: boolean;
  /** Where session.save and spawn_tree files go; default a fresh temporary directory, removed on close. */
  dataDir?: string;
  /** Delay between a session.create reply and its agent build. Default 50. */
  buildDelayMs?: number;
  /** Replay ring limits; default 512 events / 4 MiB per session, 64 MiB / 64 sessions per process. */
  replay?: { maxEventsPerSession?: number; maxBytesPerSession?: number; maxBytesProcess?: number; maxSessions?: number };
  /** Grace window before a detached session is reaped. Default 30 000. */
  orphanGraceMs?: number;
  /** session.resume refuses (4130) a transcript longer than this. Default 1000. */
  maxResumeMessages?: number;
  /** Seed of the schema-driven responder. Default 0. */
  seed?: number;
  /** Validate every result and event payload: true turns a bad result into -32603; a function receives violations. */
  strict?: boolean | ((violation: ContractViolation) => void);
  /** Where the gateway reports; it never prints. */
  log?: (line: string) => void;
  /** Session hook plugins, installed in order: `"NAME[:ARG]"` of a built-in, `{name, arg?, priority?, mode?}`, or a plugin object. */
  plugins?: readonly PluginSpec[];
  /** Time limit of one hook handler; one that exceeds it is logged and skipped. Default 5 000. */
  hookTimeoutMs?: number;
  /** An unanswered server→client request is withdrawn (`request.cancel`, reason `timeout`) after this long; 0 never. Default 30 000. */
  serverRequestTimeoutMs?: number;
  /** Deliberate faults switched on by name (see `GATEWAY_FAULTS`), for proving that the harness's checks can fail. */
  faults?: string[];
  /** Keeps compiled validators between processes (the embedder's cache); without it each process compiles its own. */
  validatorStore?: ValidatorStore;
}

export interface RunningGateway {
  /** ws://host:port/api/ws */
  readonly url: string;
  /** http://host:port/api/rpc */
  readonly httpUrl: string;
  readonly host: string;
  readonly port: number;
  /** The current replay epoch (changes on restart). */
  readonly replayEpoch: string;
  readonly dataDir: string;
  /** Gated mode's counters (tickets minted, connections opened, refusals); undefined in loopback mode. */
  readonly auth: { readonly counters: AuthCounters; readonly ticketTtlMs: number; readonly issuedTickets: readonly string[] } | undefined;
  /** The transport-free core: lifecycle events, the inbound gate and outbound funnel, the fault seams, and `core.hooks`. */
  readonly core: GatewayCore;
  /** Same port and stored rows, a new replay_epoch, all sockets closed. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_CONTRACT_PATH = join(GATEWAY_CONTRACTS_DIR, 'gateway.openrpc.json');
export const DEFAULT_BUILD_DELAY_MS = 50;
export const DEFAULT_ORPHAN_GRACE_MS = 30_000;
export const DEFAULT_MAX_RESUME_MESSAGES = 1_000;
export const DEFAULT_SERVER_REQUEST_TIMEOUT_MS = 30_000;

/** Builds the transport-free core from gateway options (also what in-memory tests use). */
export function createGatewayCore(options: GatewayOptions & { dataDir: string }): GatewayCore {
  const core = new GatewayCore({
    contractPaths: options.contractPaths ?? [DEFAULT_CONTRACT_PATH],
    legacyMessages: options.legacyMessages ?? false,
    dataDir: options.dataDir,
    buildDelayMs: options.buildDelayMs ?? DEFAULT_BUILD_DELAY_MS,
    orphanGraceMs: options.orphanGraceMs ?? DEFAULT_ORPHAN_GRACE_MS,
    maxResumeMessages: options.maxResumeMessages ?? DEFAULT_MAX_RESUME_MESSAGES,
    seed: options.seed ?? 0,
    replay: { ...DEFAULT_REPLAY_LIMITS, ...options.replay },
    strict: options.strict,
    log: options.log ?? (() => undefined),
    skin: { name: 'default' },
    plugins: options.plugins ?? [],
    hookTimeoutMs: options.hookTimeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS,
    serverRequestTimeoutMs: options.serverRequestTimeoutMs ?? DEFAULT_SERVER_REQUEST_TIMEOUT_MS,
    validatorStore: options.validatorStore,
  });
  installFaults(core, options.faults ?? []);
  return core;
}

export async function startGateway(options: GatewayOptions = {}): Promise<RunningGateway> {
  assertFaultNames(options.faults ?? []);
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'contract-gate-gateway-'));
  mkdirSync(dataDir, { recursive: true });
  const log = options.log ?? (() => undefined);
  const core = createGatewayCore({ ...options, dataDir, log });
  const auth = options.auth ? new GatedAuth(options.auth, core.seams.auth, options.token) : undefined;
  const server = new GatewayServer(core, {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    token: options.token,
    allowedOrigins: options.allowedOrigins,
    auth,
    log,
  });
  const address = await server.listen();
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `ws://${host}:${address.port}${WS_PATH}`,
    httpUrl: `http://${host}:${address.port}${RPC_PATH}`,
    host: address.address,
    port: address.port,
    get replayEpoch() {
      return core.replayEpoch;
    },
    dataDir,
    auth: auth ? { get counters() { return auth.counters; }, ticketTtlMs: auth.tickets.ttlMs, issuedTickets: auth.issued } : undefined,
    core,
    restart: async () => core.restart(),
    close: async () => {
      core.close();
      await server.close();
      if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A gateway speaking newline-delimited JSON-RPC on a pair of streams (default: this process's stdin and stdout). */
export type StdioGatewayOptions = Omit<GatewayOptions, 'host' | 'port' | 'token' | 'allowedOrigins' | 'auth'> & { input?: Readable; output?: Writable };

export interface RunningStdioGateway {
  readonly dataDir: string;
  readonly core: GatewayCore;
  /** Resolves when the input ends (the gateway has then closed itself). */
  readonly ended: Promise<void>;
  close(): Promise<void>;
}

/**
 * The reference gateway on stdio, as the Hermes TUI spawns `python -m tui_gateway.entry`: one connection for the
 * life of the input, `gateway.ready` first, then one JSON value per line each way. When the input ends the
 * connection drops and the gateway closes.
 */
export async function startStdioGateway(options: StdioGatewayOptions = {}): Promise<RunningStdioGateway> {
  assertFaultNames(options.faults ?? []);
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'contract-gate-gateway-'));
  mkdirSync(dataDir, { recursive: true });
  const log = options.log ?? (() => undefined);
  const core = createGatewayCore({ ...options, dataDir, log });
  const output = options.output ?? process.stdout;
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    core.close();
    if (output !== process.stdout) output.end();
    if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  const link = attachStdio(core, options.input ?? process.stdin, output, log);
  const ended = link.ended.then(close);
  return { dataDir, core, ended, close };
}

export type { ContractViolation } from './core/contractChecker.js';
export type { ValidatorShelf, ValidatorStore } from './core/contract/schemaValidators.js';
export { DEFAULT_TICKET_TTL_MS, GATEWAY_PROTOCOL, TICKET_PROTOCOL_PREFIX, type AuthCounters, type GatedAuthOptions } from './auth/gatedAuth.js';
export type { AuthRelaxation } from './auth/authRelaxations.js';
export type { LifecycleEvent, SessionCloseReason } from './core/lifecycleEvents.js';
export type { InboundDecision, InboundFrame, InboundInterceptor } from './core/inboundGate.js';
export type { FrameInterceptor, OutboundFrame } from './core/outboundFunnel.js';
export { GatewayCore } from './core/gatewayCore.js';
export { BUILTIN_PLUGINS, RecordPlugin } from './hooks/builtinPlugins.js';
export { DEFAULT_HOOK_PRIORITY, DEFAULT_HOOK_TIMEOUT_MS, HookBus } from './hooks/hookBus.js';
export { assertFaultNames, faultNamed, GATEWAY_FAULTS, installFaults, UnknownFaultError } from './faults/faultRegistry.js';
export type { FaultSeams, GatewayFault } from './faults/faultTypes.js';
export type * from './hooks/hookTypes.js';
export { HOOK_MODES, HOOK_NAMES } from './hooks/hookTypes.js';
export { parsePluginArgument, parsePluginsConfig, type PluginConfig, type PluginsConfig, type PluginSpec } from './hooks/pluginSpecs.js';
export type { SessionHooks } from './hooks/sessionHooks.js';
export { connectInMemory, MemoryClient, MemoryRpcError } from './transport/inMemory.js';
