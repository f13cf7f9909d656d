import type { Contract } from '../../../src/contracts/contractModel.js';
import { formatViolation, SchemaValidators } from '../../../src/contracts/schemaValidators.js';
import type { WireEvent, JsonSchema } from '../../../core/index.js';

export const HOOK_EVENT = 'session.hook';

/** RFC 3339 with a UTC designator (`Z` or a zero offset). */
const UTC_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]00:?00)$/i;

/** Validates `session.hook` events against the payload schema of the extension document that declares them. */
export class HookPayloadCheck {
  private readonly validators: SchemaValidators;

  private constructor(
    contract: Contract,
    private readonly schema: JsonSchema,
  ) {
    this.validators = new SchemaValidators(contract);
  }

  /** The check of the first document declaring `session.hook` with a payload schema; undefined when none does. */
  static fromContracts(contracts: readonly Contract[]): HookPayloadCheck | undefined {
    for (const contract of contracts) {
      const schema = contract.event(HOOK_EVENT)?.payloadSchema;
      if (schema !== undefined) return new HookPayloadCheck(contract, schema);
    }
    return undefined;
  }

  /** What is wrong with one event: schema violations, a session id that differs from the envelope's, a non-UTC time. */
  problems(event: WireEvent): string[] {
    const payload = event.payload;
    const problems = this.validators.check(this.schema, payload).slice(0, 5).map(formatViolation);
    if (typeof payload === 'object' && payload !== null && !Array.isArray(payload)) {
      if (payload['session_id'] !== event.session_id) problems.push(`payload session_id ${JSON.stringify(payload['session_id'])} differs from params.session_id ${JSON.stringify(event.session_id)}`);
      const at = payload['timestamp'];
      if (typeof at === 'string' && !UTC_TIMESTAMP.test(at)) problems.push(`timestamp ${JSON.stringify(at)} is not RFC 3339 UTC`);
    }
    return problems;
  }
}
