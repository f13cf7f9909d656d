/**
 * `tui_gateway/contracts/sessions.py`, second half (close, branch, undo, history, compression,
 * corrections, spawn trees, replay, one-shot LLM).
 */
import { ProfileParams, SessionLiveInfo, SessionParams, TranscriptMessage, Usage } from './commonModels.js';
import {
  OpenModel, Result, bool, dflt, dict, factory, float, int, json, list, method, model, opt, req, str, wireEnum,
  type MethodDef,
} from './modelDsl.js';
import { OpenRequestEntry } from './sessionMethods.js';

// ── live-session lifecycle ──

const SessionCloseParams = model('SessionCloseParams', SessionParams, {});
const SessionCloseResult = model('SessionCloseResult', Result, { closed: req(bool) });

const SessionBranchParams = model('SessionBranchParams', SessionParams, { name: opt(str), count: opt(int) });

const SessionBranchResult = model('SessionBranchResult', Result, {
  session_id: req(str),
  stored_session_id: req(str),
  title: req(str),
  parent: req(str),
  message_count: req(int),
  messages: req(list(TranscriptMessage)),
  info: req(SessionLiveInfo),
});

const SessionBranchWholeParams = model('SessionBranchWholeParams', SessionParams, { name: opt(str) });

const SessionBranchWholeResult = model('SessionBranchWholeResult', Result, {
  session_id: req(str),
  stored_session_id: req(str),
  title: req(str),
  parent: req(str),
  message_count: req(int),
  messages_omitted: req(bool),
  info: req(SessionLiveInfo),
});

const SessionUndoParams = model('SessionUndoParams', SessionParams, {});
const SessionUndoResult = model('SessionUndoResult', Result, { removed: req(int) });

const SessionSaveParams = model('SessionSaveParams', SessionParams, {});
const SessionSaveResult = model('SessionSaveResult', Result, { file: opt(str) }, {
  extra: 'allow',
  doc: 'Under turn isolation the compute host\'s result passes through verbatim.',
});

const SessionStatusParams = model('SessionStatusParams', SessionParams, {});
const SessionStatusResult = model('SessionStatusResult', Result, { output: req(str) });

const SessionHistoryParams = model('SessionHistoryParams', SessionParams, {});
const SessionHistoryResult = model('SessionHistoryResult', Result, {
  count: req(int),
  messages: req(list(TranscriptMessage)),
});

const SessionUsageParams = model('SessionUsageParams', SessionParams, {});
const SessionUsageResult = model('SessionUsageResult', Usage, { credits_lines: opt(list(str)) });

const SessionContextBreakdownParams = model('SessionContextBreakdownParams', SessionParams, {});

const ContextCategory = model('ContextCategory', Result, {
  color: req(str),
  id: req(str),
  label: req(str),
  tokens: req(int),
});

const ContextFileSource = model('ContextFileSource', Result, {
  label: req(str),
  path: req(str),
  chars: req(int),
  est_tokens: req(int),
  loaded: req(bool),
  status: req(str),
}, { doc: 'One row of ``agent.context_file_sources.list_context_file_sources``.' });

const SessionContextBreakdownResult = model('SessionContextBreakdownResult', Result, {
  categories: req(list(ContextCategory)),
  context_max: req(int),
  context_percent: req(int),
  context_used: req(int),
  estimated_total: req(int),
  context_estimated: req(bool),
  context_source: req(str),
  model: req(str),
  context_files: dflt(list(ContextFileSource), []),
}, {
  doc: '``agent.context_breakdown.compute_session_context_breakdown`` (empty categories before the agent builds)\n'
    + 'plus the per-file context manifest (empty until the agent exists).',
});

// ── compression ──

const CompressionSummary = model('CompressionSummary', OpenModel, {
  noop: dflt(bool, false),
  aborted: dflt(bool, false),
  refused_would_grow: opt(bool),
  fallback_used: opt(bool),
  headline: dflt(str, ''),
  token_line: dflt(str, ''),
  note: opt(str),
}, { doc: '``agent.manual_compression_feedback.summarize_manual_compression``.' });

const SessionCompressParams = model('SessionCompressParams', SessionParams, { focus_topic: opt(str) });

const SessionCompressResult = model('SessionCompressResult', Result, {
  status: opt(str),
  removed: opt(int),
  before_messages: opt(int),
  after_messages: opt(int),
  before_tokens: opt(int),
  after_tokens: opt(int),
  summary: opt(CompressionSummary),
  usage: opt(Usage),
  info: opt(SessionLiveInfo),
  messages: opt(list(TranscriptMessage)),
  compressed: opt(bool),
  lock_held: opt(bool),
  message: opt(str),
  turn_isolation: opt(bool),
  host_ack: opt(dict(json)),
}, {
  extra: 'allow',
  doc: 'In-process: the before/after summary + replacement transcript. Compute host: its result passes\n'
    + 'through (hence open) with ``turn_isolation``; a lock held elsewhere answers ``compressed: false``.',
});

// ── interrupt / steer / redirect ──

const SessionInterruptParams = model('SessionInterruptParams', SessionParams, { expected_hosted_task_id: opt(str) });

const InterruptStatus = wireEnum('InterruptStatus', ['interrupted', 'not_interrupted']);

const SessionInterruptResult = model('SessionInterruptResult', Result, {
  status: req(InterruptStatus),
  interrupted: opt(bool),
  turn_isolation: opt(bool),
});

const CorrectionStatus = wireEnum('CorrectionStatus', ['queued', 'redirected', 'rejected']);

const SessionCorrectionParams = model('SessionCorrectionParams', SessionParams, { text: req(str) });
const SessionCorrectionResult = model('SessionCorrectionResult', Result, { status: req(CorrectionStatus), text: req(str) });

// ── spawn trees ──

const SpawnTreeSaveParams = model('SpawnTreeSaveParams', ProfileParams, {
  subagents: req(list(dict(json))),
  session_id: opt(str),
  started_at: opt(float),
  finished_at: opt(float),
  label: opt(str),
});

const SpawnTreeSaveResult = model('SpawnTreeSaveResult', Result, { path: req(str), session_id: req(str) });

const SpawnTreeListParams = model('SpawnTreeListParams', ProfileParams, {
  session_id: opt(str),
  cross_session: dflt(bool, false),
  limit: opt(int),
});

const SpawnTreeEntry = model('SpawnTreeEntry', OpenModel, {
  path: req(str),
  session_id: opt(str),
  started_at: opt(float),
  finished_at: opt(float),
  label: dflt(str, ''),
  count: dflt(int, 0),
}, { doc: 'Index row (``server._append_spawn_tree_index``) or a legacy file scan.' });

const SpawnTreeListResult = model('SpawnTreeListResult', Result, { entries: req(list(SpawnTreeEntry)) });

const SpawnTreeLoadParams = model('SpawnTreeLoadParams', ProfileParams, { path: req(str) });

const SpawnTreeLoadResult = model('SpawnTreeLoadResult', Result, {
  session_id: opt(str),
  started_at: opt(float),
  finished_at: opt(float),
  label: opt(str),
  subagents: factory(list(dict(json))),
}, {
  extra: 'allow',
  doc: 'The snapshot file as written by ``spawn_tree.save`` (open: the file is the contract).',
});

// ── terminal / event replay ──

const TerminalResizeParams = model('TerminalResizeParams', SessionParams, { cols: opt(int) });
const TerminalResizeResult = model('TerminalResizeResult', Result, { cols: req(int) });

const SessionEventsSinceParams = model('SessionEventsSinceParams', SessionParams, { last_seen: opt(int) });

const SessionEventsSinceResult = model('SessionEventsSinceResult', Result, {
  events: req(list(dict(json))),
  latest_seq: req(int),
  truncated: req(bool),
  count: req(int),
  epoch: req(str),
  open_requests: req(list(OpenRequestEntry)),
});

const SessionEventsStatsParams = model('SessionEventsStatsParams', ProfileParams, {});

const SessionEventsStatsResult = model('SessionEventsStatsResult', Result, {
  sessions: req(int),
  events: req(int),
  bytes: req(int),
  max_per_session: req(int),
  max_bytes_per_session: req(int),
  max_bytes_process: req(int),
}, { doc: '``event_replay.replay_stats``.' });

// ── one-shot LLM ──

const LlmOneshotParams = model('LlmOneshotParams', ProfileParams, {
  template: opt(str),
  instructions: opt(str),
  input: opt(str),
  variables: opt(dict(json)),
  task: opt(str),
  temperature: opt(float),
  max_tokens: opt(int),
  session_id: opt(str),
}, { doc: 'Needs a ``template`` or ``instructions`` / ``input``; a live ``session_id`` lends its model.' });

const LlmOneshotResult = model('LlmOneshotResult', Result, { text: req(str) });

export const liveSessionMethods: readonly MethodDef[] = [
  method('session.close', SessionCloseParams, SessionCloseResult,
    'Tear down a live session (its stored row stays resumable).'),
  method('session.branch', SessionBranchParams, SessionBranchResult,
    'Fork a live session into a new stored child that shares the parent\'s history so far.'),
  method('session.branch_whole', SessionBranchWholeParams, SessionBranchWholeResult,
    'session.branch of the whole history without echoing the copied transcript back.'),
  method('session.undo', SessionUndoParams, SessionUndoResult,
    'Drop the last user turn (and everything after it) from an idle session.'),
  method('session.save', SessionSaveParams, SessionSaveResult,
    'Export the transcript to ~/.hermes/sessions/saved (classic /save).'),
  method('session.status', SessionStatusParams, SessionStatusResult, 'Rendered /status text for the session.'),
  method('session.history', SessionHistoryParams, SessionHistoryResult,
    'The durable display transcript (ancestors included, row ids attached).'),
  method('session.usage', SessionUsageParams, SessionUsageResult,
    'Token / context / cost counters for the session (+ Nous credit lines when available).'),
  method('session.context_breakdown', SessionContextBreakdownParams, SessionContextBreakdownResult,
    'Cursor-style split of the context window by category.'),
  method('session.compress', SessionCompressParams, SessionCompressResult,
    'Manual /compress of an idle session, optionally focused on a topic.'),
  method('session.interrupt', SessionInterruptParams, SessionInterruptResult,
    'Stop the running turn (and streaming TTS); retires the crash-recovery marker.'),
  method('session.steer', SessionCorrectionParams, SessionCorrectionResult,
    'Inject text into the next tool result without interrupting the turn.'),
  method('session.redirect', SessionCorrectionParams, SessionCorrectionResult,
    'Redirect the active turn (queued for the next turn while the agent is still building).'),
  method('spawn_tree.save', SpawnTreeSaveParams, SpawnTreeSaveResult,
    'Persist a finished delegation tree snapshot under the session\'s spawn-trees dir.'),
  method('spawn_tree.list', SpawnTreeListParams, SpawnTreeListResult, 'Saved spawn-tree snapshots, newest first.'),
  method('spawn_tree.load', SpawnTreeLoadParams, SpawnTreeLoadResult,
    'Read one saved spawn-tree snapshot (path must be under the spawn-trees root).'),
  method('terminal.resize', TerminalResizeParams, TerminalResizeResult,
    'Record the client\'s column width for server-side rendering.'),
  method('session.events.since', SessionEventsSinceParams, SessionEventsSinceResult,
    'Replay events after a seq watermark on WS reconnect; truncated means refetch state.'),
  method('session.events.stats', SessionEventsStatsParams, SessionEventsStatsResult,
    'Replay-buffer occupancy telemetry (ops/debug).'),
  method('llm.oneshot', LlmOneshotParams, LlmOneshotResult,
    'Stateless one-shot LLM completion (titles, ideas) on the session\'s or the task backend.'),
];
