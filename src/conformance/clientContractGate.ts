import { allOptionalValue, minimalValue } from '../../fuzz/index.js';
import { Binder, type RpcCaller } from '../binding/binder.js';
import { type BindingRules, methodBindingOf } from '../binding/bindingRules.js';
import { classifyExchange, describeExchange } from '../checks/outcomeClass.js';
import type { CodeProfile } from '../checks/codeProfile.js';
import { violation, type Violation } from '../checks/violation.js';
import type { Contract, ContractMethod } from '../contracts/contractModel.js';
import { isJsonObject, type JsonValue } from '../../core/index.js';

export interface ClientPayload {
  /** The optional key this payload adds to the smallest one ('' for the all-keys payload and the smallest one). */
  key: string;
  payload: JsonValue;
}

/** Every payload shape a client on this contract may send: the smallest, the fullest, and the smallest plus each optional key alone. */
export function clientPayloads(contract: Contract, method: ContractMethod): ClientPayload[] {
  const options = { resolver: contract.resolver };
  const minimal = minimalValue(method.paramsSchema, options);
  const full = allOptionalValue(method.paramsSchema, options);
  const payloads: ClientPayload[] = [
    { key: '', payload: minimal },
    { key: '*', payload: full },
  ];
  if (isJsonObject(minimal) && isJsonObject(full)) {
    for (const [key, value] of Object.entries(full)) {
      if (!(key in minimal)) payloads.push({ key, payload: { ...minimal, [key]: value } });
    }
  }
  return payloads;
}

export interface ClientGateResult {
  violations: Violation[];
  sent: number;
  /** Payloads the target answered (accepted or not). */
  answered: number;
  /** "method.path (observed error)" lines for the summary. */
  breaks: string[];
}

/**
 * `skew.client-contract`: sends every payload a client on `client` may send for one method (ids bound to live
 * objects) and reports each one the target refuses as a contract rejection or an unknown method.
 */
export async function runClientContractGate(input: {
  client: Contract;
  method: ContractMethod;
  profile: CodeProfile;
  caller: RpcCaller;
  rules: BindingRules;
  timeoutMs: number;
}): Promise<ClientGateResult> {
  const { client, method, profile, caller } = input;
  const binder = new Binder(input.rules, caller, input.timeoutMs);
  const fresh = methodBindingOf(input.rules, method.name)?.fresh === true;
  const violations: Violation[] = [];
  const breaks: string[] = [];
  const payloads = clientPayloads(client, method);
  let answered = 0;
  for (const { key, payload } of payloads) {
    const bound = await (fresh ? binder.fork() : binder).bind(method.name, payload).catch(() => payload);
    const exchange = await caller.call(method.name, bound, { timeoutMs: input.timeoutMs });
    const kind = classifyExchange(exchange, profile);
    // Silence is not acceptance: a payload nothing answered was never seen to be accepted.
    const unanswered = exchange.response === undefined;
    if (!unanswered) answered++;
    if (!unanswered && kind !== 'contract-rejection' && kind !== 'unknown-method') continue;
    const where = key === '' ? method.name : key === '*' ? `${method.name} (every optional key)` : `${method.name}.${key}`;
    const line = `${where} (${describeExchange(exchange)})`;
    breaks.push(line);
    violations.push(violation('skew.client-contract', `clients on ${client.title} ${client.version} would break: ${line}`, exchange.id));
  }
  // The every-key payload only adds information when no single key explains its rejection.
  const single = breaks.filter((line) => !line.includes('(every optional key)'));
  const kept = single.length > 0 ? single : breaks;
  return { violations: violations.filter((v) => kept.some((line) => v.message.endsWith(line))), sent: payloads.length, answered, breaks: kept };
}
