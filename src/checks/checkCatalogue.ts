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

export const CHECKS = define([
  // JSON-RPC envelope, applied to every answer of every method.
  { id: 'envelope.jsonrpc-version', area: 'envelope', subject: 'method', title: 'jsonrpc is "2.0"', rule: 'Every response carries jsonrpc: "2.0".' },
  { id: 'envelope.id-echo', area: 'envelope', subject: 'method', title: 'id echoed with the same type and value', rule: 'A response echoes the request id with the identical JSON type and value.' },
  { id: 'envelope.result-xor-error', area: 'envelope', subject: 'method', title: 'exactly one of result / error', rule: 'A response has exactly one of result and error.' },
  { id: 'envelope.error-shape', area: 'envelope', subject: 'method', title: 'error object shape', rule: 'error is {code: integer, message: string, data?}.' },
  { id: 'envelope.parse-error', area: 'envelope', subject: 'connection', title: 'non-JSON frame answers -32700', rule: 'A frame that is not JSON answers -32700 with id null and the connection survives.' },
  { id: 'envelope.unknown-method', area: 'envelope', subject: 'connection', title: 'unknown method answers -32601', rule: 'An undeclared method answers -32601 (Hermes: with the out-of-sync suffix).' },
  { id: 'envelope.invalid-request', area: 'envelope', subject: 'connection', title: 'malformed request is refused', rule: 'Wrong jsonrpc, missing method or a non-object frame never succeeds and the connection survives.' },
  { id: 'envelope.id-types', area: 'envelope', subject: 'connection', title: 'ids of every JSON type', rule: 'String, integer and fractional ids are echoed exactly.' },
  { id: 'envelope.batch', area: 'envelope', subject: 'connection', title: 'batch array', rule: 'A JSON array frame is answered per profile (Hermes: -32600) and the connection survives.' },
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
  { id: 'event.envelope', area: 'event', subject: 'event', title: 'event envelope', rule: 'Events are notifications (no id) with method "event", a string type, a string session_id and an integer seq on session events.' },
  { id: 'event.payload-schema', area: 'event', subject: 'event', title: 'event payload schema', rule: 'Every event payload validates against its x-notifications schema.' },
  { id: 'event.seq-monotonic', area: 'event', subject: 'event', title: 'per-session seq increases by one', rule: 'seq starts at 1 per session and increases by exactly one, with no repeat and no gap.' },
  // Scenarios: topology and skew.
  { id: 'scenario.topology-local', area: 'scenario', subject: 'scenario', title: 'local lane creates', rule: 'A client on the server contract creates a bare session (no cwd) successfully.' },
  { id: 'scenario.topology-remote', area: 'scenario', subject: 'scenario', title: 'remote lane creates', rule: 'A desktop-like client sending cwd + cwd_explicit gets the outcome the skew analyser predicts; on success the session cwd is the sent cwd.' },
  { id: 'scenario.tolerant-client', area: 'scenario', subject: 'scenario', title: 'tolerant client retry', rule: 'Resending once without exactly the rejected field succeeds; a rejection of any other field is never retried.' },
  { id: 'scenario.browser-remote-lane', area: 'scenario', subject: 'scenario', title: 'remote lane from a browser page', rule: 'A page in Chromium shows the accepted draft or the out-of-sync banner as predicted.' },
  { id: 'skew.predicted-observed', area: 'skew', subject: 'scenario', title: 'predicted skew equals observed skew', rule: 'Every finding the analyser predicts for (client contract, target) is observed live, and nothing else breaks.' },
  { id: 'skew.client-contract', area: 'skew', subject: 'method', title: 'clients on another contract keep working', rule: 'Every payload a client on --client-contract may send is accepted by the target.' },
  // Scenarios: lifecycle.
  { id: 'scenario.lifecycle-delete-live', area: 'scenario', subject: 'scenario', title: 'delete refused while live', rule: 'session.delete of a stored id whose session is live answers 4023; after close it succeeds.' },
  { id: 'scenario.lifecycle-close-resume', area: 'scenario', subject: 'scenario', title: 'closed session stays resumable', rule: 'After session.close the stored row resumes under a new runtime id with the same history.' },
  // Scenarios: replay.
  { id: 'scenario.replay-clean-close', area: 'scenario', subject: 'scenario', title: 'replay after a clean close', rule: 'events.since(last_seen) returns exactly the missed events in order after a clean close.' },
  { id: 'scenario.replay-abnormal-drop', area: 'scenario', subject: 'scenario', title: 'replay after an abnormal drop', rule: 'events.since(last_seen) returns exactly the missed events after terminate().' },
  { id: 'scenario.replay-mid-stream', area: 'scenario', subject: 'scenario', title: 'replay after a drop mid-stream', rule: 'A drop during a /slow turn loses nothing: replay plus parked live frames give each seq exactly once.' },
  { id: 'scenario.replay-overflow', area: 'scenario', subject: 'scenario', title: 'ring overflow is reported', rule: 'More events than the ring holds gives truncated: true for an old watermark.' },
  { id: 'scenario.replay-watermark-ahead', area: 'scenario', subject: 'scenario', title: 'watermark ahead of latest_seq', rule: 'A watermark greater than latest_seq gives truncated: true.' },
  { id: 'scenario.replay-epoch', area: 'scenario', subject: 'scenario', title: 'epoch changes on restart', rule: 'gateway.ready carries replay_epoch; a restart changes it and events.since reports the same epoch.' },
  { id: 'scenario.replay-stats', area: 'scenario', subject: 'scenario', title: 'replay stats agree', rule: 'session.events.stats counts agree with the events produced.' },
  // Server→client requests (the gateway asks, the client answers), provoked with the reference gateway's `/request`.
  { id: 'server-request.envelope', area: 'server-request', subject: 'server-request', title: 'server request frame', rule: 'A server request has a string id, a declared method, params valid against its schema and the session_id of a session on this connection.' },
  { id: 'server-request.answer-accepted', area: 'server-request', subject: 'server-request', title: 'a valid answer lets the turn finish', rule: 'A schema-valid answer lets the turn that asked finish without an error event.' },
  { id: 'server-request.cancel', area: 'server-request', subject: 'server-request', title: 'an unanswered request is withdrawn once', rule: 'An unanswered server request gets exactly one request.cancel with the same id and method when its session closes.' },
  { id: 'server-request.open-on-resume', area: 'server-request', subject: 'server-request', title: 'open requests survive a drop', rule: 'After a dropped connection, session.resume lists the unanswered request in open_requests, and answering it on the new connection lets the turn finish.' },
  // The auth boundary of a gated dashboard (row `(auth)`): refused means closed (4401/4403) or refused at the handshake, with no frame answered.
  { id: 'auth.missing-refused', area: 'auth', subject: 'connection', title: 'no credential refused', rule: 'An upgrade without any credential is refused before any JSON-RPC frame is answered.' },
  { id: 'auth.wrong-refused', area: 'auth', subject: 'connection', title: 'unknown ticket refused', rule: 'A ticket the dashboard never minted is refused (4401) before any frame is answered.' },
  { id: 'auth.reused-refused', area: 'auth', subject: 'connection', title: 'used ticket refused', rule: 'A ticket that already opened a connection is refused the second time: tickets are single-use.' },
  { id: 'auth.expired-refused', area: 'auth', subject: 'connection', title: 'expired ticket refused', rule: 'A ticket presented after its ttl_seconds is refused (n/a when the TTL cannot be waited out within the budget).' },
  { id: 'auth.legacy-token-refused', area: 'auth', subject: 'connection', title: 'legacy token refused', rule: 'In gated mode the legacy ?token= is refused, even the right one.' },
  { id: 'auth.ticket-protocol-alone-refused', area: 'auth', subject: 'connection', title: 'ticket protocol without hermes-gateway-v1 refused', rule: 'A hermes-gateway-ticket.<t> subprotocol offered without hermes-gateway-v1 is refused.' },
  { id: 'auth.two-ticket-protocols-refused', area: 'auth', subject: 'connection', title: 'two ticket protocols refused', rule: 'An offer with two ticket-bearing subprotocols is refused, whichever ticket is good.' },
  { id: 'auth.selected-protocol', area: 'auth', subject: 'connection', title: 'selected subprotocol is hermes-gateway-v1', rule: 'A ticket presented as subprotocols is accepted and the server selects exactly hermes-gateway-v1, never the ticket-bearing protocol.' },
  { id: 'auth.foreign-origin-refused', area: 'auth', subject: 'connection', title: 'foreign Origin refused', rule: 'An upgrade with a fresh ticket but an Origin that is not the bound host is refused (4403).' },
  { id: 'auth.refused-reaches-no-session', area: 'auth', subject: 'connection', title: 'nothing of a refused connection reaches a session', rule: 'A session.create sent on refused connections creates nothing: session.list and session.active_list on a valid connection show no such session.' },
  // Scenarios: session hooks (extension).
  { id: 'scenario.hooks-cleanup-exception', area: 'scenario', subject: 'scenario', title: 'cleanup carries the exception', rule: 'An abnormal disconnect with close_on_disconnect gives one cleanup with ConnectionClosed and the committed count.' },
  { id: 'scenario.hooks-normal-close', area: 'scenario', subject: 'scenario', title: 'normal close cleanup', rule: 'session.close gives one cleanup with exception null and the count kept.' },
  { id: 'scenario.hooks-reset', area: 'scenario', subject: 'scenario', title: 'reset hook', rule: 'session.reset fires session_reset with the previous context and restarts the count.' },
  { id: 'scenario.hooks-build-failure', area: 'scenario', subject: 'scenario', title: 'build failure cleanup', rule: 'A failed agent build emits error then cleanup with AgentBuildError carrying the same message.' },
  { id: 'scenario.hooks-once', area: 'scenario', subject: 'scenario', title: 'cleanup at most once', rule: 'A second close emits no second cleanup.' },
  // Stateful runs: random call sequences judged by a model of the contract, or against the reference gateway.
  { id: 'stateful.model', area: 'stateful', subject: 'scenario', title: 'call sequences keep the model', rule: "Every command of a random call sequence answers what the model of the session contract predicts (the model's rules, README \"Stateful runs\")." },
  { id: 'stateful.differential', area: 'stateful', subject: 'scenario', title: 'call sequences agree with the reference', rule: 'The same random call sequence run in lockstep on the target and on a fresh reference gateway gives the same outcome class and tracked fields at every step (ids and timestamps normalised).' },
] as const);

export type CheckId = (typeof CHECKS)[number]['id'];

/**
 * Rules of the reference gateway itself, proven in test/ rather than judged in the matrix: no target but the
 * reference gateway can be started with plugins, so a matrix cell would only ever judge the project's own siblings.
 * `oracle.hooks-plugin-isolation` was the matrix check `scenario.hooks-plugin-failure` (see the README's migration notes).
 */
export const ORACLE_RULES = ['oracle.hooks-plugin-isolation'] as const;
export type OracleRuleId = (typeof ORACLE_RULES)[number];
/** What a violation can name: a matrix check, or a rule of the oracle. */
export type RuleId = CheckId | OracleRuleId;

const BY_ID = new Map<string, CheckDefinition>(CHECKS.map((check) => [check.id, check]));

export function isCheckId(value: string): value is CheckId {
  return BY_ID.has(value);
}

export function checkDefinition(id: CheckId): CheckDefinition {
  const found = BY_ID.get(id);
  if (!found) throw new Error(`unknown check id ${id}`);
  return found;
}
