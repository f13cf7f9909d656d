import { type Exchange, isJsonObject, type JsonObject, type JsonValue, outcomeOf } from '../../../core/index.js';
import type { Observation } from '../engine/statefulTypes.js';
import type { ClientName } from './hermesModel.js';
import type { HermesPort } from './hermesPort.js';
import { broke } from './hermesRules.js';

/** The outcome class of an answer: `success`, `error <code>` (domain codes compared exactly), `no-answer`, `malformed`. */
export function outcomeClass(exchange: Exchange): string {
  const outcome = outcomeOf(exchange);
  if (outcome.kind === 'result') return 'success';
  if (outcome.kind === 'error') return `error ${outcome.code}`;
  if (outcome.kind === 'failure') return 'no-answer';
  return 'malformed';
}

export function resultOf(exchange: Exchange): JsonObject | undefined {
  const outcome = outcomeOf(exchange);
  return outcome.kind === 'result' && isJsonObject(outcome.result) ? outcome.result : undefined;
}

export const lengthOf = (value: JsonValue | undefined): number | null => (Array.isArray(value) ? value.length : null);

export function shortAnswer(exchange: Exchange): string {
  const text = exchange.responseText ?? exchange.failure?.message ?? '(nothing)';
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/**
 * Checks every live event the clients received since the last sweep: each session's seq goes up by exactly one
 * (`seq.live`). Runs after every command, so a gap is reported at the step that revealed it.
 */
export function sweepSeq(port: HermesPort): string[] {
  const violations: string[] = [];
  for (const client of ['a', 'b'] as ClientName[]) {
    const from = port.ids.swept.get(client) ?? 0;
    const events = port.eventsSince(client, '', from);
    port.ids.swept.set(client, from + events.length);
    for (const event of events) {
      const session = event.session_id;
      if (typeof session !== 'string' || session === '' || typeof event.seq !== 'number') continue;
      const previous = port.ids.seqSeen.get(session) ?? 0;
      if (event.seq !== previous + 1) violations.push(broke('seq.live', `${event.type} of ${port.ids.refOf(session)} arrived with seq ${event.seq} after seq ${previous}`));
      port.ids.seqSeen.set(session, Math.max(previous, event.seq));
    }
  }
  return violations;
}

/** Builds the observation of a step: the main answer's class and tracked fields, plus the seq sweep. */
export function observed(port: HermesPort, exchange: Exchange | undefined, fields: JsonObject, violations: string[]): Observation {
  return {
    outcome: exchange ? outcomeClass(exchange) : 'success',
    fields,
    violations: [...violations, ...sweepSeq(port)],
    answer: exchange ? shortAnswer(exchange) : '(no call)',
  };
}

/** Collects the violations of one step. */
export class Expect {
  readonly violations: string[] = [];

  that(holds: boolean, message: () => string): boolean {
    if (!holds) this.violations.push(message());
    return holds;
  }
}
