/**
 * The check catalogue. Check ids are public API: they are matrix columns, baseline keys and `@check:` tags.
 * Rename only with an entry in RETIRED_CHECKS (docs/checks.md shows it as a migration note).
 */
export type CheckArea = 'envelope' | 'params' | 'result' | 'event' | 'server-request' | 'scenario' | 'skew' | 'stateful' | 'auth';

export interface CheckDefinition {
  readonly id: string;
  readonly area: CheckArea;
  /** What the cell subject is: a contract method, an event type, or a scenario name. */
  readonly subject: 'method' | 'event' | 'server-request' | 'scenario' | 'connection';
  readonly title: string;
  /** What the expectation is: the rule the cell holds the target to. */
  readonly rule: string;
  /** What the check puts on the wire to judge the rule (or, for a judge of recorded exchanges, what it reads). */
  readonly sends: string;
  /** When its cell is n/a rather than judged (docs/checks.md). */
  readonly notApplicableWhen: string;
}

const define = <const T extends readonly CheckDefinition[]>(checks: T): T => checks;

/** The checks of every target, whatever its profile; a profile adds its own (`Profile.checks`). */
export const CHECKS = define([
  // JSON-RPC envelope, applied to every answer of every method.
  { id: 'envelope.jsonrpc-version', area: 'envelope', subject: 'method', title: 'jsonrpc is "2.0"', rule: 'Every response carries jsonrpc: "2.0".', sends: 'Nothing of its own: it judges every answered request of the method run (valid, unknown-key and invalid phases).', notApplicableWhen: 'No request of the method run was answered (or its cases were not sent: the target had stopped answering).' },
  { id: 'envelope.id-echo', area: 'envelope', subject: 'method', title: 'id echoed with the same type and value', rule: 'A response echoes the request id with the identical JSON type and value.', sends: 'Nothing of its own: it judges every answered request of the method run (valid, unknown-key and invalid phases). A request answered twice breaks it too.', notApplicableWhen: 'No request of the method run was answered (or its cases were not sent: the target had stopped answering).' },
  { id: 'envelope.result-xor-error', area: 'envelope', subject: 'method', title: 'exactly one of result / error', rule: 'A response has exactly one of result and error.', sends: 'Nothing of its own: it judges every answered request of the method run (valid, unknown-key and invalid phases).', notApplicableWhen: 'No request of the method run was answered (or its cases were not sent: the target had stopped answering).' },
  { id: 'envelope.error-shape', area: 'envelope', subject: 'method', title: 'error object shape', rule: 'error is {code: integer, message: string, data?}.', sends: 'Nothing of its own: it judges every answered request of the method run (valid, unknown-key and invalid phases).', notApplicableWhen: 'No request of the method run was answered (or its cases were not sent: the target had stopped answering).' },
  { id: 'envelope.parse-error', area: 'envelope', subject: 'connection', title: 'non-JSON frame answers -32700', rule: 'A frame that is not JSON answers -32700 with id null and the connection survives.', sends: 'Three frames that are not JSON (plain text, truncated JSON, a request followed by trailing garbage), each followed by a probe call that must still be answered.', notApplicableWhen: 'Never on a WebSocket, HTTP or stdio target; it runs in the destructive stage, after every other cell.' },
  { id: 'envelope.unknown-method', area: 'envelope', subject: 'connection', title: 'unknown method answers -32601', rule: 'An undeclared method answers -32601 (with the exact wording the profile requires, when it names one).', sends: 'contract_gate.no_such_method {} and, when the first method of the contract has a namespace (the part before its first . or _), <namespace>.no_such_method {}.', notApplicableWhen: 'Never.' },
  { id: 'envelope.invalid-request', area: 'envelope', subject: 'connection', title: 'malformed request is refused', rule: 'Wrong jsonrpc, missing method or a non-object frame never succeeds and the connection survives.', sends: 'Fifteen JSON frames that are no request ({}, null, 42, a string; jsonrpc "1.0", 2 or missing; method missing, a number or null; params a string or a number; id an object or an array; the empty batch []), each followed by a probe call.', notApplicableWhen: 'Never on a WebSocket, HTTP or stdio target; it runs in the destructive stage, after every other cell.' },
  { id: 'envelope.id-types', area: 'envelope', subject: 'connection', title: 'ids of every JSON type', rule: 'String, integer and fractional ids are echoed exactly.', sends: "The profile's probe call when the target answers it before dispatch, else the first method of the contract with its smallest params, with ten ids: short, empty, numeric, unicode and 1,024-character strings, 7, 0, -7, 1.5 and 2^53 - 1.", notApplicableWhen: 'Never.' },
  { id: 'envelope.batch', area: 'envelope', subject: 'connection', title: 'batch array', rule: 'A JSON array frame is answered as the profile says (one response per member, or one error) and the connection survives.', sends: 'Two array frames: two requests of the first method of the contract, and one request with the number 1; each followed by a probe call.', notApplicableWhen: 'Never on a WebSocket, HTTP or stdio target; it runs in the destructive stage, after every other cell.' },
  { id: 'envelope.error-hygiene', area: 'envelope', subject: 'method', title: 'error answers leak nothing', rule: 'No error answer carries a stack trace, an absolute file-system path or a secret of the run (the token, --secret-env values) in message, data or any other member.', sends: 'Per method, nothing of its own: it judges every error answer of the method run. On (connection): an undeclared method with {} and with [1, "two", {"three": null}], and the probe method with a string as params.', notApplicableWhen: 'No error answer was received to judge.' },
  { id: 'envelope.oversized-frame', area: 'envelope', subject: 'connection', title: 'oversized frame', rule: 'An oversized frame gets an error answer or a 1009 close, never a hang or a crash.', sends: 'One well-formed request of the first method of the contract padded to 2 MiB; it waits 10 s for an answer or a close.', notApplicableWhen: 'Never on a WebSocket, HTTP or stdio target; it runs in the destructive stage, after every other cell.' },
  // Params.
  { id: 'params.valid-accepted', area: 'params', subject: 'method', title: 'valid payload accepted', rule: 'A contract-valid payload gets a success or a domain error, never a contract rejection, a server error, a dropped socket or silence.', sends: 'The valid phase: --runs payloads (default 100), three fixed examples first (the smallest payload, every optional key, 64 KiB strings), then seeded ones, identifier fields bound to live objects the run created.', notApplicableWhen: 'No contract-valid payload can be generated (the params schema is unsatisfiable), or the live objects the method needs could not be created (their own cells report why).' },
  { id: 'params.unknown-key-rejected', area: 'params', subject: 'method', title: 'unknown key rejected by a closed model', rule: 'An unknown key under a closed model (additionalProperties: false) is rejected with the profile code and a message naming its dotted path.', sends: 'The unknown-key phase at closed object paths: a valid payload with one undeclared key added at that path (top level, a nested object, an array item).', notApplicableWhen: 'No object path of the params is a closed model (additionalProperties: false, or by-name top-level params under a profile that takes them as closed).' },
  { id: 'params.unknown-key-tolerated', area: 'params', subject: 'method', title: 'unknown key tolerated by an open model', rule: 'An unknown key under an open model is accepted and the answer is the same as without it.', sends: 'The unknown-key phase at open object paths: a valid payload with one undeclared key at that path (a map gets a new entry whose value fits it), and the same payload without it.', notApplicableWhen: 'No object path of the params is an open model.' },
  { id: 'params.invalid-not-accepted', area: 'params', subject: 'method', title: 'contract-invalid payload never succeeds', rule: 'Wrong type, missing required, null for non-null, out-of-range and boundary-violating payloads never get a success, not even one that comes after the request timed out. A payload left unanswered breaks no rule but is no answer seen: its method counts it as unanswered.', sends: 'The invalid phase: a valid payload with a wrong type, a missing required key, null for non-null, an out-of-range or a boundary-violating value at each path.', notApplicableWhen: 'The params schema admits every value, so no invalid payload exists.' },
  // Results.
  { id: 'result.schema', area: 'result', subject: 'method', title: 'result matches the result schema', rule: 'Every success result validates against the method result schema.', sends: 'Nothing of its own: it judges every success answer of the valid phase and of the open-model unknown-key probes.', notApplicableWhen: 'The method declares no result schema, or no request got a success.' },
  // Events.
  { id: 'event.envelope', area: 'event', subject: 'event', title: 'event envelope', rule: "Events are notifications (no id) of the shape the profile's wire dialect reads (e.g. a string type, the session and an integer seq on session events).", sends: 'Nothing of its own: it judges the event sample, the events the drivers of the binding rules provoke (the reference gateway also emits every declared type they did not).', notApplicableWhen: 'No event of that type was observed.' },
  { id: 'event.payload-schema', area: 'event', subject: 'event', title: 'event payload schema', rule: 'Every event payload validates against its x-notifications schema.', sends: 'Nothing of its own: it judges the payload of every event of that type in the event sample.', notApplicableWhen: 'No event of that type was observed.' },
  { id: 'event.seq-monotonic', area: 'event', subject: 'event', title: 'per-session seq increases by one', rule: 'seq starts at 1 per session and increases by exactly one, with no repeat and no gap.', sends: 'Nothing of its own: it judges the seq of every session event in the event sample, per session.', notApplicableWhen: 'No session event was observed.' },
  // Version skew.
  { id: 'skew.client-contract', area: 'skew', subject: 'method', title: 'clients on another contract keep working', rule: 'Every payload a client on --client-contract may send is accepted by the target.', sends: 'Every payload a client on --client-contract may send to the method (every optional key populated at least once), identifier fields bound to live objects.', notApplicableWhen: 'Never: the cells exist only with --client-contract, one per method of that contract.' },
  // Server→client requests (the gateway asks, the client answers).
  { id: 'server-request.envelope', area: 'server-request', subject: 'server-request', title: 'server request frame', rule: 'A server request has a string id, a declared method, params valid against its schema and the session_id of a session on this connection.', sends: 'The profile makes the embedded reference gateway ask (a turn told to send the request); every server request received is answered with a seeded value of its result schema.', notApplicableWhen: "The target is not the embedded reference gateway (a real gateway asks only when its agent decides to), or the contract lacks what the profile's driver calls (a session, a turn, the event that ends it)." },
  { id: 'server-request.answer-accepted', area: 'server-request', subject: 'server-request', title: 'a valid answer lets the turn finish', rule: 'A schema-valid answer lets the turn that asked finish without an error event.', sends: 'A turn on the embedded reference gateway told to send the request, a seeded schema-valid answer to it, then a wait for the turn to end.', notApplicableWhen: "The target is not the embedded reference gateway (a real gateway asks only when its agent decides to), or the contract lacks what the profile's driver calls (a session, a turn, the event that ends it)." },
] as const);

/** A generic check's id. */
export type GenericCheckId = (typeof CHECKS)[number]['id'];
/** Any check's id: a generic one, or one a profile declares. */
export type CheckId = string;

/**
 * Rules of the reference gateway itself, proven in test/ rather than judged in the matrix: no target but the
 * reference gateway can be started with plugins, so a matrix cell would only ever judge the project's own siblings.
 * `oracle.hooks-plugin-isolation` was the matrix check `scenario.hooks-plugin-failure` (RETIRED_CHECKS).
 */
export const ORACLE_RULES = ['oracle.hooks-plugin-isolation'] as const;
export type OracleRuleId = (typeof ORACLE_RULES)[number];
/** Check ids that left the matrix, with what replaced them: docs/checks.md lists them so baselines and greps can be migrated. */
export const RETIRED_CHECKS: ReadonlyArray<{ readonly id: string; readonly note: string }> = [
  {
    id: 'scenario.hooks-plugin-failure',
    note: 'Only the reference gateway can be started with plugins, so the cell only ever judged the project\'s own sibling gateways: it was a test of the oracle. The rule is now `oracle.hooks-plugin-isolation`, proven by `test/unit/hooksScenarios.test.ts` against gateways with and without the `hooks.plugin-error-reaches-client` fault; remove the id from baselines and `--grep` patterns.',
  },
];

/** What a violation can name: a matrix check, or a rule of the oracle. */
export type RuleId = CheckId | OracleRuleId;

/** The checks one run knows: the generic ones and its profile's, in the order the matrix shows them. */
export class CheckCatalogue {
  private readonly byId: ReadonlyMap<string, CheckDefinition>;

  constructor(readonly checks: readonly CheckDefinition[]) {
    const byId = new Map<string, CheckDefinition>();
    for (const check of checks) {
      if (byId.has(check.id)) throw new Error(`check ${check.id} is declared twice`);
      byId.set(check.id, check);
    }
    this.byId = byId;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  get(id: string): CheckDefinition {
    const found = this.byId.get(id);
    if (!found) throw new Error(`unknown check id ${id}`);
    return found;
  }

  /** The catalogue with `more` checks after these. */
  with(more: readonly CheckDefinition[]): CheckCatalogue {
    return more.length === 0 ? this : new CheckCatalogue([...this.checks, ...more]);
  }

  get ids(): string[] {
    return this.checks.map((check) => check.id);
  }
}

export const GENERIC_CATALOGUE = new CheckCatalogue(CHECKS);
