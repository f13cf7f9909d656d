import type { CheckId } from '../../src/checks/checkCatalogue.js';

/** One matrix cell: a row (method, event, `(connection)`, `(session events)` or scenario family) and a check. */
export interface Cell {
  readonly subject: string;
  readonly check: CheckId;
}

export interface FaultCase {
  /** The gateway fault switched on (`contract-gate run --fault`). */
  readonly fault: string;
  /** Exactly the cells that must fail; every other cell the run declares must pass or be n/a. */
  readonly failing: readonly Cell[];
  /** Rows run beside the failing ones, to show that the fault breaks nothing else they judge (`@area:event` for all event cells). */
  readonly alsoRun?: readonly string[];
  /** Extra `contract-gate run` arguments. */
  readonly args?: readonly string[];
  /** Why checks other than the fault's own fail too: they judge the same thing. */
  readonly shared?: string;
  /** The run's replay command for each failing method cell must reproduce the failure (exit 1). */
  readonly replay?: boolean;
}

export const cellKey = (cell: Cell): string => `${cell.subject} × ${cell.check}`;

const on = (subject: string, ...checks: CheckId[]): Cell[] => checks.map((check) => ({ subject, check }));

const CONNECTION = '(connection)';
const FULL_DOCUMENT = ['--contract', 'profiles/hermes/contracts/gateway.openrpc.json'];
const AUTH = '(auth)';
/** The auth faults that change what an admitted connection gets: the browser lane runs beside them. */
const BROWSER_FACING_AUTH_FAULTS = ['auth.ticket-protocol-echoed', 'auth.foreign-origin-accepted'];
const GATED = ['--embedded-auth', 'gated'];
const AUTH_CASES: ReadonlyArray<readonly [string, CheckId]> = [
  ['auth.missing-credential-accepted', 'auth.missing-refused'],
  ['auth.unknown-ticket-accepted', 'auth.wrong-refused'],
  ['auth.tickets-reusable', 'auth.reused-refused'],
  ['auth.expired-ticket-accepted', 'auth.expired-refused'],
  ['auth.legacy-token-accepted', 'auth.legacy-token-refused'],
  ['auth.ticket-protocol-alone-accepted', 'auth.ticket-protocol-alone-refused'],
  ['auth.two-ticket-protocols-accepted', 'auth.two-ticket-protocols-refused'],
  ['auth.ticket-protocol-echoed', 'auth.selected-protocol'],
  ['auth.foreign-origin-accepted', 'auth.foreign-origin-refused'],
  ['auth.refused-frames-dispatched', 'auth.refused-reaches-no-session'],
];
const STATUS = 'session.status';
const DROP_CHECKS: CheckId[] = ['scenario.replay-clean-close', 'scenario.replay-abnormal-drop', 'scenario.replay-mid-stream'];
const DROP_SHARED =
  'the three drop checks share one rule (events.since returns exactly the missed events, in order, once each), exercised after a clean close, an abnormal drop and a drop mid-stream; the overflow, watermark-ahead and stats checks judge only what is theirs';
const STATEFUL = '(stateful)';
const STATEFUL_CHECKS: CheckId[] = ['stateful.model', 'stateful.differential'];
/**
 * Sequences for the sequence faults: the model draws some thirty commands, and a fault shows only after the few
 * that reach it (a turn, then a resume, then a read): 25 sequences of seed 1 miss some of them, 100 find each.
 */
const STATEFUL_RUNS = ['--stateful-runs', '100'];
const STATEFUL_SHARED =
  "the model's postcondition and the lockstep run against the reference see the same wrong answer at the same step of the same sequence (one seed drives both); no single-call check of the methods involved fails, since every answer is well-formed and schema-valid on its own";
const OLDER_BACKEND_SHARED =
  'a gateway that rejects a key of the contract it claims breaks that contract (session.create × params.valid-accepted) and is unpredicted version skew: the remote lane, its browser page and the predicted-vs-observed probe all send the desktop create with cwd_explicit';

/**
 * The self-test's expectations: for each fault of the reference gateway, exactly which cells fail. The grep of each
 * run is derived from these cells (see `grepFor`), so a run always includes every check of an affected method or
 * scenario family, and `alsoRun` widens it where the fault could plausibly leak.
 */
export const FAULT_CASES: readonly FaultCase[] = [
  // Envelope, connection-level frames: all six connection checks run, one fails.
  { fault: 'envelope.parse-error-as-invalid-request', failing: on(CONNECTION, 'envelope.parse-error') },
  { fault: 'envelope.unknown-method-as-invalid-params', failing: on(CONNECTION, 'envelope.unknown-method') },
  { fault: 'envelope.malformed-request-closes-socket', failing: on(CONNECTION, 'envelope.invalid-request') },
  { fault: 'envelope.batch-ignored', failing: on(CONNECTION, 'envelope.batch') },
  { fault: 'envelope.oversized-frame-crashes', failing: on(CONNECTION, 'envelope.oversized-frame') },
  { fault: 'envelope.fractional-id-truncated', failing: on(CONNECTION, 'envelope.id-types'), alsoRun: [STATUS] },
  // Envelope, per method (all on session.status): its nine checks run, one fails.
  { fault: 'envelope.jsonrpc-missing', failing: on(STATUS, 'envelope.jsonrpc-version') },
  { fault: 'envelope.id-echo-wrong', failing: on(STATUS, 'envelope.id-echo') },
  { fault: 'envelope.result-and-error', failing: on(STATUS, 'envelope.result-xor-error') },
  { fault: 'envelope.error-code-as-string', failing: on(STATUS, 'envelope.error-shape') },
  { fault: 'envelope.error-leaks-stack', failing: on(STATUS, 'envelope.error-hygiene'), alsoRun: [CONNECTION] },
  // Params: every check of the affected method runs.
  { fault: 'params.unknown-keys-accepted', failing: on('session.set_hidden', 'params.unknown-key-rejected'), replay: true },
  { fault: 'params.unknown-key-wrong-code', failing: on('session.usage', 'params.unknown-key-rejected') },
  { fault: 'params.unknown-key-unnamed', failing: on('session.context_breakdown', 'params.unknown-key-rejected') },
  { fault: 'params.open-model-rejects-extra-key', failing: on('llm.oneshot', 'params.unknown-key-tolerated'), replay: true },
  { fault: 'params.invalid-accepted', failing: on('terminal.resize', 'params.invalid-not-accepted') },
  { fault: 'params.long-string-crash', failing: on('session.steer', 'params.valid-accepted') },
  // Unanswered requests cost the request timeout each: 1 s instead of 5 s keeps the run short.
  { fault: 'params.method-never-answers', failing: on('session.most_recent', 'params.valid-accepted'), args: ['--request-timeout', '1000'] },
  { fault: 'params.method-closes-1011', failing: on('session.list', 'params.valid-accepted') },
  // Results.
  { fault: 'result.required-field-dropped', failing: on('spawn_tree.list', 'result.schema') },
  { fault: 'result.wrong-type', failing: on('session.undo', 'result.schema') },
  { fault: 'result.undeclared-key', failing: on('session.title', 'result.schema') },
  // Without --retries a wrong first answer is a failure like any other (test/unit/retries.test.ts runs it retried).
  { fault: 'result.first-answer-wrong', failing: on('session.usage', 'result.schema') },
  // Events: every event cell runs (they share one sample); seq faults also run the replay family, which judges seqs.
  { fault: 'event.jsonrpc-missing', failing: on('message.delta', 'event.envelope'), alsoRun: ['replay'] },
  { fault: 'event.payload-wrong-type', failing: on('session.resume_progress', 'event.payload-schema') },
  { fault: 'event.seq-repeats', failing: on('(session events)', 'event.seq-monotonic'), alsoRun: ['replay'] },
  // Replay: all seven replay scenarios run, and the method cells of session.events.since where its answer is spoilt.
  { fault: 'replay.since-drops-event', failing: on('replay', ...DROP_CHECKS), alsoRun: ['session.events.since'], shared: DROP_SHARED },
  { fault: 'replay.since-duplicates-event', failing: on('replay', ...DROP_CHECKS), alsoRun: ['session.events.since'], shared: DROP_SHARED },
  { fault: 'replay.since-reorders-events', failing: on('replay', ...DROP_CHECKS), alsoRun: ['session.events.since'], shared: DROP_SHARED },
  { fault: 'replay.since-wrong-latest-seq', failing: on('replay', ...DROP_CHECKS), alsoRun: ['session.events.since'], shared: DROP_SHARED },
  { fault: 'replay.inflight-turn-missing', failing: on('replay', 'scenario.replay-mid-stream') },
  {
    fault: 'replay.ring-lost-on-abnormal-drop',
    failing: on('replay', 'scenario.replay-abnormal-drop', 'scenario.replay-mid-stream'),
    shared: 'the mid-stream drop is an abnormal drop too (terminate() during a /slow turn), so both replays come back empty and truncated',
  },
  { fault: 'replay.overflow-not-truncated', failing: on('replay', 'scenario.replay-overflow'), alsoRun: ['session.events.since'] },
  { fault: 'replay.ahead-not-truncated', failing: on('replay', 'scenario.replay-watermark-ahead'), alsoRun: ['session.events.since'] },
  {
    fault: 'replay.ready-without-epoch',
    failing: [...on('replay', 'scenario.replay-epoch'), ...on('gateway.ready', 'event.payload-schema')],
    shared: 'replay_epoch is a required field of the gateway.ready payload, so its absence breaks the payload schema as well as the epoch rule',
  },
  { fault: 'replay.stats-miscount', failing: on('replay', 'scenario.replay-stats'), alsoRun: ['session.events.stats'] },
  // Lifecycle and topology.
  { fault: 'lifecycle.delete-live-succeeds', failing: on('lifecycle', 'scenario.lifecycle-delete-live'), alsoRun: ['session.delete'] },
  { fault: 'lifecycle.resume-loses-history', failing: on('lifecycle', 'scenario.lifecycle-close-resume'), alsoRun: ['session.resume'] },
  { fault: 'topology.bare-create-refused', failing: on('topology', 'scenario.topology-local'), alsoRun: ['session.create'] },
  { fault: 'topology.remote-cwd-ignored', failing: on('topology', 'scenario.topology-remote'), alsoRun: ['session.create'] },
  {
    fault: 'topology.older-backend',
    failing: [...on('session.create', 'params.valid-accepted'), ...on('topology', 'scenario.topology-remote', 'scenario.browser-remote-lane', 'skew.predicted-observed')],
    shared: OLDER_BACKEND_SHARED,
  },
  {
    fault: 'topology.older-backend-drops-cwd',
    failing: [...on('session.create', 'params.valid-accepted'), ...on('topology', 'scenario.topology-remote', 'scenario.tolerant-client', 'scenario.browser-remote-lane', 'skew.predicted-observed')],
    shared: `${OLDER_BACKEND_SHARED}; only the tolerant client resends without cwd_explicit, and only it sees the workspace lost`,
  },
  // The client gate sends the smallest create plus each optional key alone ({cwd}); the valid phase (seed 1) never
  // sends cwd without the flag, so only the gate sees the refusal, though a valid-phase draw of that shape would too.
  {
    fault: 'skew.cwd-without-flag-refused',
    failing: on('session.create', 'skew.client-contract'),
    args: ['--client-contract', 'profiles/hermes/contracts/session-lifecycle.openrpc.json'],
    alsoRun: ['topology'],
  },
  { fault: 'topology.browser-origin-refused', failing: on('topology', 'scenario.browser-remote-lane') },
  // Server→client requests (declared by the full document only): the four checks of one request run, one fails.
  { fault: 'server-request.invalid-params', failing: on('approval', 'server-request.envelope'), args: FULL_DOCUMENT },
  { fault: 'server-request.never-cancels', failing: on('clarify', 'server-request.cancel'), args: FULL_DOCUMENT },
  { fault: 'server-request.forgets-open-on-resume', failing: on('approval', 'server-request.open-on-resume'), args: FULL_DOCUMENT },
  {
    fault: 'server-request.answer-ignored',
    failing: on('clarify', 'server-request.answer-accepted', 'server-request.open-on-resume'),
    args: FULL_DOCUMENT,
    shared: 'open-on-resume ends by answering the listed request on the new connection, which must let the turn finish too',
  },
  // Session hooks: all six hook scenarios run, one fails.
  { fault: 'hooks.cleanup-loses-disconnect-exception', failing: on('hooks', 'scenario.hooks-cleanup-exception') },
  { fault: 'hooks.cleanup-twice', failing: on('hooks', 'scenario.hooks-once') },
  { fault: 'hooks.reset-without-previous-context', failing: on('hooks', 'scenario.hooks-reset') },
  { fault: 'hooks.close-reports-exception', failing: on('hooks', 'scenario.hooks-normal-close') },
  { fault: 'hooks.build-failure-other-message', failing: on('hooks', 'scenario.hooks-build-failure') },
  // Sequence-only faults: both stateful cells fail; the methods they touch run beside them and pass.
  { fault: 'sequence.usage-reset-by-resume', failing: on(STATEFUL, ...STATEFUL_CHECKS), alsoRun: ['session.usage', 'session.resume', 'lifecycle'], shared: STATEFUL_SHARED, replay: true, args: STATEFUL_RUNS },
  { fault: 'sequence.steer-other-session', failing: on(STATEFUL, ...STATEFUL_CHECKS), alsoRun: ['session.steer'], shared: STATEFUL_SHARED, replay: true, args: STATEFUL_RUNS },
  { fault: 'sequence.branch-drops-last-turn', failing: on(STATEFUL, ...STATEFUL_CHECKS), alsoRun: ['session.branch'], shared: STATEFUL_SHARED, replay: true, args: STATEFUL_RUNS },
  { fault: 'sequence.since-foreign-after-reconnect', failing: on(STATEFUL, ...STATEFUL_CHECKS), alsoRun: ['session.events.since', 'replay'], shared: STATEFUL_SHARED, replay: true, args: STATEFUL_RUNS },
  { fault: 'sequence.list-count-stalls', failing: on(STATEFUL, ...STATEFUL_CHECKS), alsoRun: ['session.list', 'lifecycle'], shared: STATEFUL_SHARED, replay: true, args: STATEFUL_RUNS },
  // The model does not track usage totals; only the lockstep run against the reference sees them go wrong.
  { fault: 'sequence.usage-total-is-delta', failing: on(STATEFUL, 'stateful.differential'), alsoRun: ['session.usage'], replay: true, args: STATEFUL_RUNS },
  { fault: 'sequence.concurrent-prompt-lost', failing: on(STATEFUL, ...STATEFUL_CHECKS), alsoRun: ['prompt.submit', 'replay'], shared: STATEFUL_SHARED, replay: true, args: STATEFUL_RUNS },
  { fault: 'sequence.undo-forgotten', failing: on(STATEFUL, ...STATEFUL_CHECKS), alsoRun: ['session.undo', 'session.history'], shared: STATEFUL_SHARED, replay: true, args: STATEFUL_RUNS },
  { fault: 'sequence.interrupt-ignored', failing: on(STATEFUL, ...STATEFUL_CHECKS), alsoRun: ['session.interrupt'], shared: STATEFUL_SHARED, replay: true, args: STATEFUL_RUNS },
  { fault: 'sequence.redirect-idle-runs', failing: on(STATEFUL, ...STATEFUL_CHECKS), alsoRun: ['session.redirect'], shared: STATEFUL_SHARED, replay: true, args: STATEFUL_RUNS },
  { fault: 'sequence.reset-ignored', failing: on(STATEFUL, ...STATEFUL_CHECKS), alsoRun: ['session.reset'], shared: STATEFUL_SHARED, replay: true, args: STATEFUL_RUNS },
  { fault: 'sequence.active-list-drops-empty', failing: on(STATEFUL, ...STATEFUL_CHECKS), alsoRun: ['session.active_list'], shared: STATEFUL_SHARED, replay: true, args: STATEFUL_RUNS },
  { fault: 'sequence.most-recent-skips-untitled', failing: on(STATEFUL, ...STATEFUL_CHECKS), alsoRun: ['session.most_recent'], shared: STATEFUL_SHARED, replay: true, args: STATEFUL_RUNS },
  { fault: 'sequence.closed-session-readable', failing: on(STATEFUL, ...STATEFUL_CHECKS), alsoRun: ['session.status', 'session.context_breakdown', 'terminal.resize'], shared: STATEFUL_SHARED, replay: true, args: STATEFUL_RUNS },
  { fault: 'sequence.branch-count-short', failing: on(STATEFUL, ...STATEFUL_CHECKS), alsoRun: ['session.branch_whole', 'session.branch_stored'], shared: STATEFUL_SHARED, replay: true, args: STATEFUL_RUNS },
  // The auth boundary: the embedded gateway runs gated (a basic login and tickets made up for the run); all ten
  // (auth) checks run, one fails. The browser lane, a client of the same tickets and origin rules, runs beside the
  // faults that touch what an admitted connection gets (the selected subprotocol, the Origin guard); the others only
  // admit an attempt a valid client never makes (no credential, an unknown, reused or expired ticket, the legacy token,
  // a lone or doubled ticket protocol, frames of a refused connection), which the browser's fresh ticket cannot meet.
  ...AUTH_CASES.map(([fault, check]): FaultCase => ({ fault, failing: on(AUTH, check), ...(BROWSER_FACING_AUTH_FAULTS.includes(fault) ? { alsoRun: ['topology'] } : {}), args: GATED })),
];
