import type { CheckDefinition } from '../../src/checks/checkCatalogue.js';

const define = <const T extends readonly CheckDefinition[]>(checks: T): T => checks;

/** The Hermes profile's own checks: its scenarios, the auth boundary of a gated dashboard, stateful runs. */
export const HERMES_CHECKS = define([
  // Scenarios: topology and skew.
  { id: 'scenario.topology-local', area: 'scenario', subject: 'scenario', title: 'local lane creates', rule: 'A client on the server contract creates a bare session (no cwd) successfully.' },
  { id: 'scenario.topology-remote', area: 'scenario', subject: 'scenario', title: 'remote lane creates', rule: 'A desktop-like client sending cwd + cwd_explicit gets the outcome the skew analyser predicts; on success the session cwd is the sent cwd.' },
  { id: 'scenario.tolerant-client', area: 'scenario', subject: 'scenario', title: 'tolerant client retry', rule: 'Resending once without exactly the rejected field succeeds; a rejection of any other field is never retried.' },
  { id: 'scenario.browser-remote-lane', area: 'scenario', subject: 'scenario', title: 'remote lane from a browser page', rule: 'A page in Chromium shows the accepted draft or the out-of-sync banner as predicted.' },
  { id: 'skew.predicted-observed', area: 'skew', subject: 'scenario', title: 'predicted skew equals observed skew', rule: 'Every finding the analyser predicts for (client contract, target) is observed live, and nothing else breaks.' },
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

export type HermesCheckId = (typeof HERMES_CHECKS)[number]['id'];
