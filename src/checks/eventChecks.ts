import type { ContractEvent } from '../contracts/contractModel.js';
import { formatViolation, type SchemaValidators } from '../contracts/schemaValidators.js';
import type { GatewayEventParams } from '../../core/index.js';
import { violation, type Violation } from './violation.js';

/** `event.envelope`: `{"jsonrpc":"2.0","method":"event","params":{type, session_id, payload?, seq?}}` without an id. */
export function checkEventEnvelope(frame: Record<string, unknown>): Violation[] {
  const params = frame['params'] as GatewayEventParams;
  const name = typeof params?.type === 'string' ? params.type : '(no type)';
  const problems: string[] = [];
  if (frame['jsonrpc'] !== '2.0') problems.push(`jsonrpc is ${JSON.stringify(frame['jsonrpc'])}`);
  if ('id' in frame) problems.push('it carries an id (events are notifications)');
  if (typeof params?.type !== 'string') problems.push('params.type is not a string');
  const isReady = params?.type === 'gateway.ready';
  if (!isReady && typeof params?.session_id !== 'string') problems.push('params.session_id is not a string');
  const sessionScoped = typeof params?.session_id === 'string' && params.session_id !== '';
  if (sessionScoped && !(Number.isInteger(params.seq) && (params.seq as number) >= 1)) problems.push(`session event without an integer seq ≥ 1 (seq ${JSON.stringify(params.seq)})`);
  if (isReady && (params.seq !== undefined || (params.session_id ?? '') !== '')) problems.push('gateway.ready carries a session_id or seq');
  return problems.length === 0 ? [] : [violation('event.envelope', `event ${name}: ${problems.join('; ')}`)];
}

/** `event.payload-schema`: the payload matches the x-notifications schema; payload-less events carry none. */
export function checkEventPayload(params: GatewayEventParams, declared: ContractEvent | undefined, validators: SchemaValidators): Violation[] {
  if (!declared) return [];
  const where = `event ${params.type}${params.session_id ? ` (session ${params.session_id}, seq ${String(params.seq)})` : ''}`;
  if (declared.payloadless) {
    const empty = params.payload === undefined || (typeof params.payload === 'object' && params.payload !== null && Object.keys(params.payload).length === 0);
    return empty ? [] : [violation('event.payload-schema', `${where}: the contract declares no payload, but one was sent: ${JSON.stringify(params.payload).slice(0, 200)}`)];
  }
  if (!declared.payloadSchema) return [];
  if (params.payload === undefined) return [violation('event.payload-schema', `${where}: payload missing; the contract declares one`)];
  const problems = validators.check(declared.payloadSchema, params.payload);
  return problems.length === 0 ? [] : [violation('event.payload-schema', `${where}: payload does not match its schema: ${problems.slice(0, 5).map(formatViolation).join('; ')}`)];
}

/**
 * `event.seq-monotonic`: per session, consecutive events increase seq by exactly one; sessions listed in
 * `createdHere` must start at 1 (their whole life was observed on this connection).
 */
export function checkSeqSequence(events: readonly GatewayEventParams[], createdHere: ReadonlySet<string> = new Set()): Violation[] {
  const last = new Map<string, number>();
  const problems: Violation[] = [];
  for (const event of events) {
    const session = event.session_id;
    if (!session || typeof event.seq !== 'number') continue;
    const previous = last.get(session);
    if (previous === undefined) {
      if (createdHere.has(session) && event.seq !== 1) {
        problems.push(violation('event.seq-monotonic', `session ${session}: first event ${event.type} has seq ${event.seq}; a new session's seq starts at 1`));
      }
    } else if (event.seq !== previous + 1) {
      const what = event.seq <= previous ? 'repeats or goes back' : 'skips';
      problems.push(violation('event.seq-monotonic', `session ${session}: seq ${what} from ${previous} to ${event.seq} (event ${event.type}); seq increases by exactly one per session`));
    }
    last.set(session, event.seq);
  }
  return problems;
}
