import type { ContractEvent } from '../contracts/contractModel.js';
import { formatViolation, type SchemaValidators } from '../contracts/schemaValidators.js';
import type { WireEvent } from '../../core/index.js';
import type { WireDialect } from '../../core/wireDialect.js';
import { violation, type Violation } from './violation.js';

/** `event.envelope`: a notification (no id, jsonrpc 2.0) of the shape the profile's wire dialect reads. */
export function checkEventEnvelope(frame: Record<string, unknown>, dialect: WireDialect): Violation[] {
  const event = dialect.readEvent(frame);
  const name = typeof event?.type === 'string' ? event.type : typeof frame['method'] === 'string' ? frame['method'] : '(no type)';
  const problems = dialect.envelopeProblems(frame);
  return problems.length === 0 ? [] : [violation('event.envelope', `event ${name}: ${problems.map((problem) => problem.message).join('; ')}`)];
}

/** `event.payload-schema`: the payload matches the x-notifications schema; payload-less events carry none. */
export function checkEventPayload(params: WireEvent, declared: ContractEvent | undefined, validators: SchemaValidators): Violation[] {
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
export function checkSeqSequence(events: readonly WireEvent[], createdHere: ReadonlySet<string> = new Set()): Violation[] {
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
