import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expectEqual } from './fastExpect.js';
import { type ContractViolation, createGatewayCore, type GatewayCore, type GatewayOptions, MemoryClient, MemoryRpcError } from '../../../gateway/index.js';
import { scratchDir } from './scratchDir.js';

export const HERMES_CONTRACT = join(process.cwd(), 'profiles', 'hermes', 'contracts', 'session-lifecycle.openrpc.json');
/** The full Hermes document: the gateway's default. */
export const FULL_CONTRACT = join(process.cwd(), 'profiles', 'hermes', 'contracts', 'gateway.openrpc.json');
export const FULL_PRE_CWD_EXPLICIT_CONTRACT = join(process.cwd(), 'profiles', 'hermes', 'contracts', 'gateway.pre-cwd-explicit.openrpc.json');
export const HOOKS_EXTENSION = join(process.cwd(), 'profiles', 'hermes', 'contracts', 'session-hooks.openrpc.json');
export const PRE_CWD_EXPLICIT_CONTRACT = join(process.cwd(), 'profiles', 'hermes', 'contracts', 'session-lifecycle.pre-cwd-explicit.openrpc.json');

export interface CoreHarness {
  readonly core: GatewayCore;
  readonly dataDir: string;
  /** Every contract violation the gateway reported about its own results and events (strict mode). */
  readonly violations: ContractViolation[];
  readonly logs: string[];
  client(): MemoryClient;
  /** Asserts no contract violation happened, then stops every timer and removes the data directory. */
  close(): void;
}

/**
 * A transport-free gateway in strict mode with a short build delay, for unit tests. It serves the session lifecycle
 * document unless told otherwise: most tests pin the exact (narrow) shapes of that document; the full document,
 * the gateway's default, has tests of its own (gatewayFullDocument and after).
 */
export function coreHarness(options: Partial<GatewayOptions> = {}): CoreHarness {
  const dataDir = scratchDir('gateway-test');
  const violations: ContractViolation[] = [];
  const logs: string[] = [];
  const core = createGatewayCore({
    buildDelayMs: 5,
    contractPaths: [HERMES_CONTRACT],
    ...options,
    dataDir,
    strict: options.strict ?? ((violation) => violations.push(violation)),
    log: (line) => logs.push(line),
  });
  return {
    core,
    dataDir,
    violations,
    logs,
    client: () => new MemoryClient(core),
    close: () => {
      core.close();
      rmSync(dataDir, { recursive: true, force: true });
      expectEqual(violations, [], 'the gateway produced results or events its contract does not allow');
    },
  };
}

/** Resolves with the JSON-RPC error of a call that must fail. */
export async function rpcError(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof MemoryRpcError) return { code: error.code, message: error.message.replace(/^\[-?\d+\] /, '') };
    throw error;
  }
  throw new Error('the call succeeded but an error was expected');
}

export interface Created {
  session_id: string;
  stored_session_id: string;
  message_count: number;
  messages: Record<string, unknown>[];
  info: Record<string, unknown>;
}

/** Creates a session and waits until its agent is built (its `session.info` event). */
export async function createReady(client: MemoryClient, params: Record<string, unknown> = {}): Promise<Created> {
  const created = await client.call<Created>('session.create', params);
  await client.waitForEvent('session.info', created.session_id);
  return created;
}

/** Submits a prompt and waits for the turn's `message.complete` (the first one after the submission). */
export async function turn(client: MemoryClient, sessionId: string, text: string): Promise<Record<string, unknown>> {
  const seen = client.events(sessionId).reduce((max, event) => Math.max(max, Number(event['seq'] ?? 0)), 0);
  await client.call('prompt.submit', { session_id: sessionId, text });
  return client.waitForEvent('message.complete', sessionId, (params) => Number(params['seq']) > seen);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
