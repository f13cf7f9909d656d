import { Binder, resolveTemplates, type RpcCaller } from '../binding/binder.js';
import { ENVELOPE_CHECKS, type EnvelopeCheckId } from '../checks/envelopeChecks.js';
import { checkInvalidNotAccepted, checkUnknownKeyRejected, checkUnknownKeyTolerated, checkValidAccepted, mutationText } from '../checks/paramsChecks.js';
import type { CodeProfile } from '../checks/codeProfile.js';
import { checkResultSchema } from '../checks/resultChecks.js';
import { classifyExchange, describeExchange } from '../checks/outcomeClass.js';
import { violation, type Violation } from '../checks/violation.js';
import { type Exchange, HarnessError, isJsonObject, type JsonObject, type JsonValue } from '../../core/index.js';
import type { Contract } from '../contracts/contractModel.js';
import { SchemaValidators } from '../contracts/schemaValidators.js';
import type { ReplayFile } from './replayFile.js';

export interface ReplayOutcome {
  reproduced: boolean;
  violations: Violation[];
  exchanges: Exchange[];
}

function withoutKeyAt(payload: JsonValue, dottedPath: string): JsonValue {
  const parts = dottedPath.split('.');
  const copy = JSON.parse(JSON.stringify(payload)) as JsonValue;
  let node: JsonValue | undefined = copy;
  for (const part of parts.slice(0, -1)) node = Array.isArray(node) ? node[Number(part)] : isJsonObject(node) ? node[part] : undefined;
  if (isJsonObject(node)) delete node[parts.at(-1) as string];
  return copy;
}

/** Re-creates the live objects the recorded payload referred to, on this target, and splices their new ids in. */
async function rebind(file: ReplayFile, binder: Binder, payload: JsonValue): Promise<JsonValue> {
  if (!isJsonObject(payload)) return payload;
  const out: JsonObject = { ...payload };
  for (const [field, template] of Object.entries(file.substitutions)) {
    if (file.mutation?.dottedPath === field) continue;
    const names = [...template.matchAll(/\$\{([A-Za-z0-9_]+)\./g)].map((m) => m[1] as string);
    const scope: Record<string, JsonValue> = {};
    for (const name of names) scope[name] = await binder.resource(name);
    out[field] = resolveTemplates(template, scope);
  }
  return out;
}

/** Sends the recorded payload again and judges it with the same check. */
export async function runReplay(file: ReplayFile, contract: Contract, profile: CodeProfile, caller: RpcCaller, timeoutMs: number): Promise<ReplayOutcome> {
  const rules = { origin: 'replay file', resources: file.bindings.resources, methods: file.bindings.methods, eventDrivers: [] };
  const method = contract.method(file.method);
  const send = async (payload: JsonValue): Promise<Exchange> => caller.call(file.method, await rebind(file, new Binder(rules, caller, timeoutMs), payload), { timeoutMs });
  const exchange = await send(file.payload);
  const exchanges = [exchange];
  let violations: Violation[];
  switch (file.check) {
    case 'params.valid-accepted':
      violations = checkValidAccepted(exchange, profile);
      break;
    case 'params.unknown-key-rejected':
      violations = checkUnknownKeyRejected(exchange, file.probe?.dottedPath ?? '', profile);
      break;
    case 'params.unknown-key-tolerated': {
      const without = await send(withoutKeyAt(file.payload, file.probe?.dottedPath ?? ''));
      exchanges.push(without);
      violations = checkUnknownKeyTolerated(exchange, without, file.probe?.dottedPath ?? '', profile);
      break;
    }
    case 'params.invalid-not-accepted':
      violations = checkInvalidNotAccepted(exchange, mutationText(file.mutation));
      break;
    case 'result.schema': {
      if (!method?.resultSchema) throw new HarnessError('REPLAY_FILE_INVALID', `${file.method} has no result schema in ${contract.origin}`);
      violations = checkResultSchema(exchange, new SchemaValidators(contract).checker(method.resultSchema));
      break;
    }
    case 'skew.client-contract': {
      // A payload a client in the field sent: the target must not refuse it as a contract break.
      const kind = classifyExchange(exchange, profile);
      const refused = kind === 'contract-rejection' || kind === 'unknown-method';
      violations = refused ? [violation('skew.client-contract', `${file.method}${file.probe ? `.${file.probe.dottedPath}` : ''}: the target refuses what the client sent: ${describeExchange(exchange)}`, exchange.id)] : [];
      break;
    }
    default:
      if (file.check in ENVELOPE_CHECKS) {
        violations = ENVELOPE_CHECKS[file.check as EnvelopeCheckId](exchange);
        break;
      }
      throw new HarnessError('REPLAY_FILE_INVALID', `replay of check ${file.check} is not supported; it is judged by a scenario, rerun the suite with --grep`);
  }
  return { reproduced: violations.length > 0, violations, exchanges };
}
