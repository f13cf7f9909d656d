import type { MethodContract } from './contract/contractSet.js';
import type { SchemaValidators } from './contract/schemaValidators.js';
import type { LiveSessions } from './liveSessions.js';
import type { SchemaResponder } from './schemaResponder.js';
import { withSessionIds } from './sessionIds.js';
import type { SessionLifecycle } from './sessionLifecycle.js';

export interface SchemaAnswerDeps {
  readonly responder: SchemaResponder;
  readonly validators: SchemaValidators;
  readonly sessions: SessionLifecycle;
  readonly live: LiveSessions;
}

/**
 * The answer of a loaded method that has no stateful handler: a schema-valid value from the responder, bound to
 * live state where that is cheap. A `session_id` param must name a live session (4001, or 5032 after a failed
 * build, as a Hermes handler's session lookup answers), and session ids in the result name that session (or the
 * newest live one) wherever the result schema still holds with them.
 */
export class SchemaAnswers {
  constructor(private readonly deps: SchemaAnswerDeps) {}

  answer(method: MethodContract, params: Record<string, unknown>): unknown {
    const named = method.document.profile === 'hermes' && typeof params['session_id'] === 'string';
    const session = named ? this.deps.sessions.require(params['session_id']) : this.deps.live.all().at(-1);
    const value = this.deps.responder.respond(method);
    if (!session || !method.result) return value;
    const withIds = withSessionIds(value, session);
    return this.deps.validators.check(method.result, withIds) ? value : withIds;
  }
}
