/**
 * The events (`tui_gateway/contracts/events.py`) that the session lifecycle and its turns emit:
 * the connection's first frame, `session.info`, the turn stream, `error` and resume progress.
 */
import { SessionLiveInfo, Usage } from './commonModels.js';
import {
  OpenPayload, Payload, bool, event, int, json, model, opt, req, str, wireEnum, type EventDef,
} from './modelDsl.js';

// The skin's shape is owned by the skin engine; the contract keeps it open.
const SkinPayload = model('SkinPayload', OpenPayload, {}, {
  doc: '``tui_gateway/change_watcher.py::resolve_skin`` \u2014 the resolved active skin (``HermesSkin``).\n'
    + '``{}`` when the skin engine failed to load. Colour maps are token \u2192 colour string.',
});

const GatewayReadyPayload = model('GatewayReadyPayload', Payload, {
  skin: req(SkinPayload),
  change_events: req(bool),
  replay_epoch: req(str),
  heartbeat: opt(bool),
}, { doc: '``tui_gateway/entry.py`` (stdio) / ``tui_gateway/ws.py`` (WebSocket) first frame.' });

const ErrorPayload = model('ErrorPayload', Payload, { message: req(str) }, {
  doc: 'Every ``_emit("error", \u2026)`` site sets exactly ``message``.',
});

const MessageDeltaPayload = model('MessageDeltaPayload', Payload, { text: req(str) }, {
  doc: '``prompt_turn._invoke_agent._stream``: one chunk of the assistant reply.',
});

const MessageCompletePayload = model('MessageCompletePayload', Payload, {
  text: req(json),
  usage: opt(Usage),
  status: opt(str),
  reasoning: opt(str),
  warning: opt(str),
  rendered: opt(str),
  error: opt(str),
  recoverable: opt(bool),
  partial: opt(bool),
}, {
  doc: '``prompt_turn._complete_turn_payload`` / ``session_auto_continue._emit_terminal_turn_error`` /\n'
    + '``agent_callbacks._mirror_subagent_to_child`` (child watch mirror: ``text`` only) /\n'
    + '``compute_host_bridge`` (``text`` + ``status``).',
});

const ResumeProgressStatus = wireEnum('ResumeProgressStatus', ['loading', 'complete', 'failed']);

const SessionResumeProgressPayload = model('SessionResumeProgressPayload', Payload, {
  phase: req(str),
  status: req(ResumeProgressStatus),
  message_count: opt(int),
  message: opt(str),
}, { doc: '``server._hydrate_resume_history``.' });

export const sessionEvents: readonly EventDef[] = [
  event('gateway.ready', GatewayReadyPayload,
    'First frame of a connection: the resolved skin, the change-event capability and the replay epoch.'),
  event('error', ErrorPayload, 'A session-level failure outside a turn (agent init, model switch, compression, resume).'),
  event('message.start', null, 'A turn began streaming; no payload.'),
  event('message.delta', MessageDeltaPayload, 'One streamed chunk of the assistant reply.'),
  event('message.complete', MessageCompletePayload, 'The turn ended: final text, usage and outcome.'),
  event('session.info', SessionLiveInfo,
    'Live session settings snapshot (``server._session_info``); also the ``info`` of create/resume/activate.'),
  event('session.resume_progress', SessionResumeProgressPayload, 'Deferred resume hydration progress.'),
];
