/**
 * `tui_gateway/contracts/sessions.py`, first half: the live-session snapshot, create / branch_stored /
 * resume / activate, listing and stored-row mutation.
 */
import {
  ConnectionRequestPayload, PendingApproval, ProfileParams, SessionLiveInfo, SessionParams, TranscriptMessage,
} from './commonModels.js';
import {
  Params, Result, bool, dflt, dict, float, int, json, list, method, model, nullable, opt, req, str, wireEnum,
  type MethodDef,
} from './modelDsl.js';

// ── shared live-session snapshot ──

export const OpenRequestEntry = model('OpenRequestEntry', Result, {
  id: req(str),
  method: req(str),
  params: req(dict(json)),
}, {
  doc: 'One unanswered server\u2192client request (``server_requests.Request.snapshot``); the reconnecting\n'
    + 'client re-delivers it to its request handlers.',
});

const InflightTurn = model('InflightTurn', Result, {
  assistant: dflt(str, ''),
  streaming: dflt(bool, false),
  user: dflt(str, ''),
  display_kind: opt(str),
  display_metadata: opt(dict(json)),
  corrections: opt(list(str)),
  correction_offsets: opt(list(int)),
  error: opt(str),
  status: opt(str),
  recoverable: opt(bool),
  error_surface: opt(dict(json)),
}, {
  doc: '``session_auto_continue._inflight_snapshot``: the live (or retained failed) turn a reconnecting\n'
    + 'client rebuilds its bubbles from.',
});

const QueuedPrompt = model('QueuedPrompt', Result, { user: req(str) });

const TodoState = model('TodoState', Result, {
  todos: req(list(dict(json))),
  revision: req(int),
}, { doc: '``tool_progress._normalize_todo_state``: the authoritative todo snapshot.' });

const AutoContinue = model('AutoContinue', Result, {
  attempt: req(int),
  interrupted_at: req(float),
}, { doc: 'A crash-interrupted turn was scheduled to continue right after this resume.' });

const LiveSessionStatus = wireEnum('LiveSessionStatus', ['idle', 'starting', 'waiting', 'working', 'streaming', 'resuming']);

const LiveSessionSnapshot = model('LiveSessionSnapshot', Result, {
  session_id: req(str),
  message_count: req(int),
  messages: req(list(TranscriptMessage)),
  info: req(SessionLiveInfo),
  stored_session_id: opt(str),
  resumed: opt(str),
  session_key: opt(str),
  messages_omitted: opt(bool),
  hydrating: opt(bool),
  running: opt(bool),
  turn_started_at: opt(float),
  started_at: opt(float),
  status: opt(str),
  inflight: opt(InflightTurn),
  queued: opt(QueuedPrompt),
  pending_approval: opt(PendingApproval),
  open_requests: opt(list(OpenRequestEntry)),
  pending_connection: opt(ConnectionRequestPayload),
  todo_state: opt(TodoState),
  auto_continue: opt(AutoContinue),
}, {
  doc: 'Union of ``server._live_session_payload``, ``methods_session._resume_response`` and the\n'
    + 'live-unpersisted resume path; keys only some paths produce are optional.',
});

// ── session.create ──

const SeedMessage = model('SeedMessage', Params, {
  role: req(str),
  content: opt(str),
  text: opt(str),
  display_kind: opt(str),
}, {
  extra: 'allow',
  doc: 'One create-time transcript row (``session_history._coerce_seed_history``); ``text`` is the\n'
    + 'legacy alias of ``content``; only ``display_kind: "hidden"`` is accepted from the wire. Clients\n'
    + 'forward stored rows verbatim (``_row_id``, ``timestamp``, \u2026) and the coercer drops what it does\n'
    + 'not use, so the row stays open.',
});

/** `SessionCreateParams`; without `cwd_explicit` it is the model as it was before #52589. */
function sessionCreateParams(cwdExplicit: boolean) {
  return model('SessionCreateParams', ProfileParams, {
    cols: opt(int),
    source: opt(str),
    cwd: opt(str),
    ...(cwdExplicit ? { cwd_explicit: opt(bool) } : {}),
    messages: opt(list(SeedMessage)),
    parent_session_id: opt(str),
    title: opt(str),
    model: opt(str),
    provider: opt(str),
    reasoning_effort: opt(str),
    fast: opt(bool),
    close_on_disconnect: dflt(bool, false),
    hidden: dflt(bool, false),
    room_plumbing: dflt(bool, false),
    follow_profile_config: dflt(bool, false),
  });
}

const SessionCreateResult = model('SessionCreateResult', Result, {
  session_id: req(str),
  stored_session_id: req(str),
  message_count: req(int),
  messages: req(list(TranscriptMessage)),
  info: req(SessionLiveInfo),
});

const SessionBranchStoredParams = model('SessionBranchStoredParams', ProfileParams, {
  parent_session_id: req(str, { minLength: 1 }),
  cols: opt(int),
  source: opt(str),
  cwd: opt(str),
});

const SessionBranchStoredResult = model('SessionBranchStoredResult', Result, {
  session_id: req(str),
  stored_session_id: req(str),
  message_count: req(int),
  messages_omitted: req(bool),
  info: req(SessionLiveInfo),
});

// ── session.resume / activate ──

const SessionResumeParams = model('SessionResumeParams', SessionParams, {
  cols: opt(int),
  source: opt(str),
  lazy: dflt(bool, false),
  defer_history: dflt(bool, false),
  omit_messages: dflt(bool, false),
  eager_build: dflt(bool, false),
  close_on_disconnect: dflt(bool, false),
}, { doc: '``session_id`` is the STORED id (or an exact title); the reply\'s ``session_id`` is the runtime id.' });

const SessionResumeResult = model('SessionResumeResult', LiveSessionSnapshot, {});

const SessionActivateParams = model('SessionActivateParams', SessionParams, {
  cols: opt(int),
  omit_messages: dflt(bool, false),
});

const SessionActivateResult = model('SessionActivateResult', LiveSessionSnapshot, {});

// ── listing ──

const SessionListParams = model('SessionListParams', ProfileParams, {
  title: opt(str),
  limit: opt(int),
  include_hidden: dflt(bool, false),
});

const SessionListRow = model('SessionListRow', Result, {
  id: req(str),
  resolved_id: opt(str),
  title: dflt(str, ''),
  preview: dflt(str, ''),
  started_at: dflt(float, 0),
  message_count: dflt(int, 0),
  source: dflt(str, ''),
}, {
  doc: '``methods_session._session_row_summary``; ``resolved_id`` only on a title lookup that followed a\n'
    + 'compression lineage to its tip.',
});

const SessionListResult = model('SessionListResult', Result, { sessions: req(list(SessionListRow)) });

const SessionMostRecentParams = model('SessionMostRecentParams', ProfileParams, {});

const SessionMostRecentResult = model('SessionMostRecentResult', Result, {
  session_id: req(nullable(str)),
  title: opt(str),
  started_at: opt(float),
  source: opt(str),
});

const SessionActiveListParams = model('SessionActiveListParams', ProfileParams, { current_session_id: opt(str) });

const SessionActiveItem = model('SessionActiveItem', Result, {
  current: req(bool),
  id: req(str),
  last_active: req(float),
  message_count: req(int),
  model: req(str),
  preview: req(str),
  session_key: req(str),
  started_at: req(float),
  status: req(LiveSessionStatus),
  title: req(str),
}, { doc: '``server._session_live_item``.' });

const SessionActiveListResult = model('SessionActiveListResult', Result, { sessions: req(list(SessionActiveItem)) });

// ── stored-row mutation ──

const SessionDeleteParams = model('SessionDeleteParams', SessionParams, {}, { doc: '``session_id`` is the STORED id.' });

const SessionDeleteResult = model('SessionDeleteResult', Result, { deleted: req(str) });

const SessionTitleParams = model('SessionTitleParams', SessionParams, { title: opt(str) });

const SessionTitleResult = model('SessionTitleResult', Result, {
  title: req(str),
  session_key: opt(str),
  pending: opt(bool),
});

const SessionSetHiddenParams = model('SessionSetHiddenParams', Params, {
  session_id: req(str),
  hidden: dflt(bool, true),
  profile: opt(str),
}, { doc: '``session_id`` is a live runtime id first, else a stored id / key / title.' });

const SessionSetHiddenResult = model('SessionSetHiddenResult', Result, {
  hidden: req(bool),
  session_key: req(str),
});

const SessionWorkspaceMoveParams = model('SessionWorkspaceMoveParams', ProfileParams, {
  session_key: req(str),
  cwd: req(str),
});

const SessionWorkspaceMoveResult = model('SessionWorkspaceMoveResult', Result, {
  cwd: req(str),
  branch: opt(str),
  git_repo_root: opt(str),
});

const SessionCwdSetParams = model('SessionCwdSetParams', SessionParams, { cwd: req(str) });

const SessionCwdSetResult = model('SessionCwdSetResult', SessionLiveInfo, {}, {
  doc: 'The refreshed ``session.info`` view (full agent view, or the lazy shape).',
});

/** The methods of the first half of sessions.py; `cwdExplicit: false` renders the pre-#52589 create params. */
export function sessionMethods(options: { readonly cwdExplicit: boolean }): MethodDef[] {
  return [
    method('session.create', sessionCreateParams(options.cwdExplicit), SessionCreateResult,
      'Mint a live session (agent builds after the reply); a DB row appears on the first prompt unless seeded.'),
    method('session.branch_stored', SessionBranchStoredParams, SessionBranchStoredResult,
      'Whole-session branch of a stored parent: the owning backend reads and copies the transcript, '
        + 'which never crosses the wire (a separate method so an older gateway fails loudly, not with an empty '
        + 'branch).'),
    method('session.resume', SessionResumeParams, SessionResumeResult,
      'Attach to a stored session: reuse it if live here, else lazy / deferred / cold / eager rebuild.'),
    method('session.activate', SessionActivateParams, SessionActivateResult,
      'Attach the frontend to a live session without closing the previously focused one.'),
    method('session.list', SessionListParams, SessionListResult,
      'Human-facing stored sessions, most recent first (sub-agent / kanban sources denied).'),
    method('session.most_recent', SessionMostRecentParams, SessionMostRecentResult,
      'Most recent human-facing session; errors fold into a null session_id.'),
    method('session.active_list', SessionActiveListParams, SessionActiveListResult,
      'Live sessions in this process, insertion order (not a DB browser).'),
    method('session.delete', SessionDeleteParams, SessionDeleteResult,
      'Delete a stored session + transcripts; refused while it is live here.'),
    method('session.title', SessionTitleParams, SessionTitleResult,
      'Read or set a live session\'s title; a title set before the row exists is queued.'),
    method('session.set_hidden', SessionSetHiddenParams, SessionSetHiddenResult,
      'Set/clear hidden (out of the default list, still resumable by its owner) on a session + lineage.'),
    method('session.workspace.move', SessionWorkspaceMoveParams, SessionWorkspaceMoveResult,
      'Re-home a stored session\'s workspace; git identity is replaced and a live agent follows.'),
    method('session.cwd.set', SessionCwdSetParams, SessionCwdSetResult,
      'Change a live, idle session\'s working directory.'),
  ];
}
