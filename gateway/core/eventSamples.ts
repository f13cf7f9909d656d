import { type ContractSet, isPayloadless } from './contract/contractSet.js';
import type { SchemaValidators } from './contract/schemaValidators.js';
import type { LiveSession } from './liveSessions.js';
import type { SchemaResponder } from './schemaResponder.js';
import { withSessionIds } from './sessionIds.js';

/** Which event types the served documents declare, and a schema-valid payload of any of them (for `/emit`). */
export class EventSamples {
  constructor(
    private readonly contracts: ContractSet,
    private readonly responder: SchemaResponder,
    private readonly validators: SchemaValidators,
  ) {}

  declares(type: string): boolean {
    return this.contracts.notifications.has(type);
  }

  /** A seeded payload of `type` whose session ids name `session` where the schema allows; undefined for a payload-less type. */
  payloadFor(type: string, session: LiveSession): unknown {
    const declared = this.contracts.notifications.get(type)?.payload;
    if (!declared || isPayloadless(declared.schema)) return undefined;
    const value = this.responder.valueOf(declared, `event ${type}`);
    const withIds = withSessionIds(value, session);
    return this.validators.check(declared, withIds) ? value : withIds;
  }
}
