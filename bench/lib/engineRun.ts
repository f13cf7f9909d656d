import type { BindingRules, RpcCaller } from '../../dist/src/binding/index.js';
import type { CodeProfile } from '../../dist/src/checks/codeProfile.js';
import { Redactor } from '../../dist/src/client/redact.js';
import { ResilientCaller } from '../../dist/src/client/resilientCaller.js';
import { RpcClient } from '../../dist/src/client/rpcClient.js';
import { Transcript } from '../../dist/src/client/transcript.js';
import { runMethod } from '../../dist/src/conformance/index.js';
import type { Contract } from '../../dist/src/contracts/contractModel.js';
import { SchemaValidators } from '../../dist/src/contracts/schemaValidators.js';
import type { ScriptStep } from './exchangeScript.js';
import { HERMES_DIALECT } from '../../dist/profiles/hermes/dialect.js';

export interface EngineRunOptions {
  url: string;
  contract: Contract;
  profile: CodeProfile;
  rules: BindingRules;
  methods: readonly string[];
  runs: number;
  seed: number;
  /** Method runs in flight at once, each on its own connection (1: one method after the other). */
  lanes?: number;
  /** Keep what was done on the wire, in order (the bare loop replays it). */
  keepScript?: boolean;
}

export interface EngineRunResult {
  /** Exchanges judged by the method checks (every case of the three phases). */
  judged: number;
  /** Every request sent, setup calls and shrinking included. */
  sent: number;
  perMethod: Map<string, number>;
  /** With keepScript: connections, requests with their answers, awaited events. */
  script: ScriptStep[];
  failingCells: number;
  /** Connections opened (one per method run, more when the target dropped one). */
  connections: number;
  elapsedMs: number;
}

const REQUEST_TIMEOUT_MS = 10_000;

/**
 * Runs the per-method engine the way the methods suite does (one connection and one transcript per method run,
 * identifier binding, all three phases, verdicts and shrinking), one method after the other or on several lanes.
 */
export async function runEngine(options: EngineRunOptions): Promise<EngineRunResult> {
  const validators = new SchemaValidators(options.contract);
  const perMethod = new Map<string, number>();
  const script: ScriptStep[] = [];
  const keep = (step: ScriptStep): void => {
    if (options.keepScript) script.push(step);
  };
  let judged = 0;
  let sent = 0;
  let failingCells = 0;
  let connections = 0;
  const queue = [...options.methods];

  const runOne = async (name: string): Promise<void> => {
    const method = options.contract.method(name);
    if (!method) throw new Error(`${name} is not in ${options.contract.origin}`);
    const transcript = new Transcript(new Redactor([]));
    const readyTimeoutMs = options.profile.label === 'hermes' ? 2_000 : 0;
    const client = new ResilientCaller(() => {
      connections++;
      keep({ kind: 'open', waitsForReady: readyTimeoutMs > 0 });
      return RpcClient.connect({ url: options.url, transcript, ...(readyTimeoutMs > 0 ? { dialect: HERMES_DIALECT } : {}), readyTimeoutMs, requestTimeoutMs: REQUEST_TIMEOUT_MS });
    });
    const caller: RpcCaller = {
      call: async (m, params, callOptions) => {
        const exchange = await client.call(m, params, callOptions);
        sent++;
        keep({ kind: 'call', text: exchange.requestText, response: exchange.response });
        return exchange;
      },
      waitForEvent: async (filter, timeoutMs) => {
        const event = await client.waitForEvent(filter, timeoutMs);
        keep({ kind: 'wait', type: filter.type ?? event.type, sessionId: filter.sessionId });
        return event;
      },
    };
    await client.client();
    try {
      const result = await runMethod({
        contract: options.contract,
        method,
        profile: options.profile,
        validators,
        caller,
        rules: options.rules,
        seed: options.seed,
        runs: options.runs,
        timeLimitMs: 60_000,
        requestTimeoutMs: REQUEST_TIMEOUT_MS,
      });
      judged += result.records.length;
      perMethod.set(name, result.records.length);
      failingCells += [...result.verdicts.values()].filter((v) => v.status === 'fail').length;
    } finally {
      await client.close();
      keep({ kind: 'close' });
    }
  };

  const started = performance.now();
  const lane = async (): Promise<void> => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) await runOne(name);
  };
  await Promise.all(Array.from({ length: Math.max(1, options.lanes ?? 1) }, lane));
  return { judged, sent, perMethod, script, failingCells, connections, elapsedMs: performance.now() - started };
}
