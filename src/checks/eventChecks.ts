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

const NO_SESSIONS: ReadonlySet<string> = new Set();

/**
 * `event.seq-monotonic`: per session, consecutive events increase seq by exactly one; sessions listed in
 * `createdHere` must start at 1 (their whole life was observed on this connection).
 */
export function checkSeqSequence(events: readonly WireEvent[], createdHere: ReadonlySet<string> = NO_SESSIONS): Violation[] {
  const last = new Map<string, number>();
  const problems: Violation[] = [];
  for (const event of events) {
    const session = event.session_id;
    if (!session || typeof event.seq !== 'number') continue;
    const problem = seqStepProblem(last.get(session), session, event.seq, event.type, createdHere);
    if (problem) problems.push(problem);
    last.set(session, event.seq);
  }
  return problems;
}

/**
 * `event.seq-monotonic` for one more event of a session, after its event `previous` (none: the first seen), as
 * `checkSeqSequence([previous, event])` judges it; what a stream judge calls per event without building a sequence.
 */
export function checkSeqStep(previous: WireEvent | undefined, event: WireEvent, createdHere: ReadonlySet<string> = NO_SESSIONS): Violation[] {
  const session = event.session_id;
  if (!session || typeof event.seq !== 'number') return [];
  const before = previous?.session_id === session && typeof previous.seq === 'number' ? previous.seq : undefined;
  const problem = seqStepProblem(before, session, event.seq, event.type, previous === undefined ? createdHere : NO_SESSIONS);
  return problem ? [problem] : [];
}

/** The seq rule for one event (`seq`, `type`) of `session`, whose previous seq was `previous` (undefined: none seen). */
function seqStepProblem(previous: number | undefined, session: string, seq: number, type: string, createdHere: ReadonlySet<string>): Violation | undefined {
  if (previous === undefined) {
    return createdHere.has(session) && seq !== 1 ? violation('event.seq-monotonic', `session ${session}: first event ${type} has seq ${seq}; a new session's seq starts at 1`) : undefined;
  }
  if (seq === previous + 1) return undefined;
  const what = seq <= previous ? 'repeats or goes back' : 'skips';
  return violation('event.seq-monotonic', `session ${session}: seq ${what} from ${previous} to ${seq} (event ${type}); seq increases by exactly one per session`);
}
