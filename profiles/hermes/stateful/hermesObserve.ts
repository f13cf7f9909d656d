import type { Exchange, JsonObject } from '../../../core/index.js';
import { outcomeClass, shortAnswer } from '../../../src/stateful/engine/observe.js';
import type { Observation } from '../../../src/stateful/engine/statefulTypes.js';
import type { ClientName } from './hermesModel.js';
import type { HermesPort } from './hermesPort.js';
import { broke } from './hermesRules.js';

export { lengthOf, outcomeClass, resultOf, shortAnswer } from '../../../src/stateful/engine/observe.js';

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
