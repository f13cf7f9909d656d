/**
 * The check catalogue. Check ids are public API: they are matrix columns, baseline keys and `@check:` tags.
 * Rename only with a migration note in the README.
 */
export type CheckArea = 'envelope' | 'params' | 'result' | 'event' | 'server-request' | 'scenario' | 'skew' | 'stateful' | 'auth';

export interface CheckDefinition {
  readonly id: string;
  readonly area: CheckArea;
  /** What the cell subject is: a contract method, an event type, or a scenario name. */
  readonly subject: 'method' | 'event' | 'server-request' | 'scenario' | 'connection';
  readonly title: string;
  readonly rule: string;
}

const define = <const T extends readonly CheckDefinition[]>(checks: T): T => checks;

/** The checks of every target, whatever its profile; a profile adds its own (`Profile.checks`). */
export const CHECKS = define([
  // JSON-RPC envelope, applied to every answer of every method.
  { id: 'envelope.jsonrpc-version', area: 'envelope', subject: 'method', title: 'jsonrpc is "2.0"', rule: 'Every response carries jsonrpc: "2.0".' },
  { id: 'envelope.id-echo', area: 'envelope', subject: 'method', title: 'id echoed with the same type and value', rule: 'A response echoes the request id with the identical JSON type and value.' },
  { id: 'envelope.result-xor-error', area: 'envelope', subject: 'method', title: 'exactly one of result / error', rule: 'A response has exactly one of result and error.' },
  { id: 'envelope.error-shape', area: 'envelope', subject: 'method', title: 'error object shape', rule: 'error is {code: integer, message: string, data?}.' },
  { id: 'envelope.parse-error', area: 'envelope', subject: 'connection', title: 'non-JSON frame answers -32700', rule: 'A frame that is not JSON answers -32700 with id null and the connection survives.' },
  { id: 'envelope.unknown-method', area: 'envelope', subject: 'connection', title: 'unknown method answers -32601', rule: 'An undeclared method answers -32601 (with the exact wording the profile requires, when it names one).' },
  { id: 'envelope.invalid-request', area: 'envelope', subject: 'connection', title: 'malformed request is refused', rule: 'Wrong jsonrpc, missing method or a non-object frame never succeeds and the connection survives.' },
  { id: 'envelope.id-types', area: 'envelope', subject: 'connection', title: 'ids of every JSON type', rule: 'String, integer and fractional ids are echoed exactly.' },
  { id: 'envelope.batch', area: 'envelope', subject: 'connection', title: 'batch array', rule: 'A JSON array frame is answered as the profile says (one response per member, or one error) and the connection survives.' },
  { id: 'envelope.error-hygiene', area: 'envelope', subject: 'method', title: 'error answers leak nothing', rule: 'No error answer carries a stack trace, an absolute file-system path or a secret of the run (the token, --secret-env values) in message, data or any other member.' },
  { id: 'envelope.oversized-frame', area: 'envelope', subject: 'connection', title: 'oversized frame', rule: 'An oversized frame gets an error answer or a 1009 close, never a hang or a crash.' },
  // Params.
  { id: 'params.valid-accepted', area: 'params', subject: 'method', title: 'valid payload accepted', rule: 'A contract-valid payload gets a success or a domain error, never a contract rejection, a server error, a dropped socket or silence.' },
  { id: 'params.unknown-key-rejected', area: 'params', subject: 'method', title: 'unknown key rejected by a closed model', rule: 'An unknown key under a closed model (additionalProperties: false) is rejected with the profile code and a message naming its dotted path.' },
  { id: 'params.unknown-key-tolerated', area: 'params', subject: 'method', title: 'unknown key tolerated by an open model', rule: 'An unknown key under an open model is accepted and the answer is the same as without it.' },
  { id: 'params.invalid-not-accepted', area: 'params', subject: 'method', title: 'contract-invalid payload never succeeds', rule: 'Wrong type, missing required, null for non-null, out-of-range and boundary-violating payloads never get a success.' },
  // Results.
  { id: 'result.schema', area: 'result', subject: 'method', title: 'result matches the result schema', rule: 'Every success result validates against the method result schema.' },
  // Events.
  { id: 'event.envelope', area: 'event', subject: 'event', title: 'event envelope', rule: "Events are notifications (no id) of the shape the profile's wire dialect reads (e.g. a string type, the session and an integer seq on session events)." },
  { id: 'event.payload-schema', area: 'event', subject: 'event', title: 'event payload schema', rule: 'Every event payload validates against its x-notifications schema.' },
  { id: 'event.seq-monotonic', area: 'event', subject: 'event', title: 'per-session seq increases by one', rule: 'seq starts at 1 per session and increases by exactly one, with no repeat and no gap.' },
  // Version skew.
  { id: 'skew.client-contract', area: 'skew', subject: 'method', title: 'clients on another contract keep working', rule: 'Every payload a client on --client-contract may send is accepted by the target.' },
  // Server→client requests (the gateway asks, the client answers).
  { id: 'server-request.envelope', area: 'server-request', subject: 'server-request', title: 'server request frame', rule: 'A server request has a string id, a declared method, params valid against its schema and the session_id of a session on this connection.' },
  { id: 'server-request.answer-accepted', area: 'server-request', subject: 'server-request', title: 'a valid answer lets the turn finish', rule: 'A schema-valid answer lets the turn that asked finish without an error event.' },
] as const);

/** A generic check's id. */
export type GenericCheckId = (typeof CHECKS)[number]['id'];
/** Any check's id: a generic one, or one a profile declares. */
export type CheckId = string;

/**
 * Rules of the reference gateway itself, proven in test/ rather than judged in the matrix: no target but the
 * reference gateway can be started with plugins, so a matrix cell would only ever judge the project's own siblings.
 * `oracle.hooks-plugin-isolation` was the matrix check `scenario.hooks-plugin-failure` (see the README's migration notes).
 */
export const ORACLE_RULES = ['oracle.hooks-plugin-isolation'] as const;
export type OracleRuleId = (typeof ORACLE_RULES)[number];
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
