/**
 * Shared Hermes models: `tui_gateway/contracts/common.py` (the parts the session lifecycle uses) and
 * the connection-operation payload of `connectors_operation.py` that a live-session snapshot carries.
 */
import {
  OpenModel, Params, Payload, Result, bool, dflt, dict, factory, float, int, json, list, model, opt, req, str, union,
  wireEnum,
} from './modelDsl.js';

export const ProfileParams = model('ProfileParams', Params, { profile: opt(str) }, {
  doc: 'Any method the desktop may route to a named profile (``requestGatewayForProfile`` adds ``profile``).',
});

export const SessionParams = model('SessionParams', Params, { session_id: req(str), profile: opt(str) }, {
  doc: 'Any method addressed at one live session.',
});

export const Usage = model('Usage', OpenModel, {
  model: dflt(str, ''),
  input: dflt(int, 0),
  output: dflt(int, 0),
  reasoning: dflt(int, 0),
  prompt: dflt(int, 0),
  completion: dflt(int, 0),
  total: dflt(int, 0),
  calls: dflt(int, 0),
  compressions: opt(int),
  context_used: opt(int),
  context_max: opt(int),
  context_percent: opt(int),
  context_source: opt(str),
  context_estimated: opt(bool),
  cache_hit_pct: opt(int),
  cache_read: opt(int),
  cache_write: opt(int),
  avg_latency_s: opt(float),
  avg_tps: opt(float),
  active_subagents: opt(int),
  dev_credits_spent_micros: opt(int),
  cost_usd: opt(float),
  cost_status: opt(str),
}, { doc: '``tui_gateway/server.py::_get_usage`` + ``agent/context_breakdown.py::context_usage_fields``.' });

export const ProjectRef = model('ProjectRef', Result, {
  id: req(str),
  slug: req(str),
  name: req(str),
  primary_path: opt(str),
}, { doc: '``tui_gateway/server.py::_project_info_for_cwd``.' });

export const McpServerStatus = model('McpServerStatus', OpenModel, {
  name: dflt(str, ''),
  status: opt(str),
  tool_count: opt(int),
  error: opt(str),
});

export const SessionLiveInfo = model('SessionLiveInfo', OpenModel, {
  model: dflt(str, ''),
  provider: dflt(str, ''),
  reasoning_effort: dflt(str, ''),
  reasoning_effort_wire: dflt(str, ''),
  service_tier: dflt(str, ''),
  fast: dflt(bool, false),
  yolo: dflt(bool, false),
  approval_mode: dflt(str, 'manual'),
  tools: factory(dict(list(str))),
  skills: factory(dict(list(str))),
  cwd: dflt(str, ''),
  branch: opt(str),
  project: opt(ProjectRef),
  terminal_backend: dflt(str, ''),
  personality: dflt(str, ''),
  running: dflt(bool, false),
  turn_started_at: opt(float),
  title: dflt(str, ''),
  stored_session_id: dflt(str, ''),
  desktop_contract: opt(union(int, str)),
  version: dflt(str, ''),
  release_date: dflt(str, ''),
  update_behind: opt(json),
  update_command: dflt(str, ''),
  usage: opt(Usage),
  profile_name: opt(str),
  mcp_servers: factory(list(McpServerStatus)),
  system_prompt: opt(str),
  credential_warning: opt(str),
  lazy: opt(bool),
}, {
  doc: '``tui_gateway/server.py::_session_info`` \u2014 the ``session.info`` event and the ``info`` field of\n'
    + '``session.create`` / ``session.resume`` / ``session.activate`` results.',
});

export const ToolLabelKind = wireEnum('ToolLabelKind', ['connector', 'mcp', 'tool'],
  'Which surface one inner call of a bridged ``tool_call`` runs on.');

export const ToolLabel = model('ToolLabel', Payload, {
  kind: req(ToolLabelKind),
  app: req(str),
  action: req(str),
  emoji: req(str),
  text: req(str),
  name: req(str),
  preview: dflt(str, ''),
}, {
  doc: '``tools.tool_labels.ToolLabel`` \u2014 what one call executed through the tool_search bridge is,\n'
    + 'in words. Clients render ``text`` (or ``app``/``action`` in their own columns) and never parse\n'
    + 'the tool name themselves.',
});

export const TranscriptMessage = model('TranscriptMessage', OpenModel, {
  role: req(str),
  text: opt(str),
  content: opt(json),
  tool_call_id: opt(str),
  timestamp: opt(float),
  row_id: opt(int),
  display_kind: opt(str),
  display_metadata: opt(json),
  name: opt(str),
  context: opt(str),
  args: opt(dict(json)),
  labels: opt(list(ToolLabel)),
  reasoning: opt(str),
}, {
  doc: 'One transcript row as the gateway PROJECTS it for renderers (``session_history._project_history``):\n'
    + '``text``, display-only ``timestamp`` / ``display_kind`` / ``display_metadata``, the durable ``row_id``\n'
    + 'rewind targets, and for tool rows raw ``content``, ``tool_call_id``, ``name``, ``context`` and ``args``.\n'
    + 'Assistant detail sidecars (``reasoning``, \u2026) ride as extra keys.',
});

export const PendingApproval = model('PendingApproval', OpenModel, {
  request_id: opt(str),
  command: opt(str),
  description: opt(str),
  pattern_key: opt(str),
  pattern_keys: opt(list(str)),
  allow_permanent: opt(bool),
  allow_session: opt(bool),
  smart_denied: opt(bool),
  choices: opt(list(str)),
  tool_name: opt(str),
}, {
  doc: 'One unresolved ``tools/approval.py`` gateway queue entry as ``server._approval_request_payload``\n'
    + 'renders it (command redacted; ``choices`` precomputed). The key set is owned by the approval tool.',
});

export const ConnectionTargetKind = wireEnum('ConnectionTargetKind', ['connector', 'mcp', 'plugin', 'skill']);

export const ConnectionTargetAction = wireEnum('ConnectionTargetAction', ['authorize', 'connect', 'enable', 'install', 'reconnect']);

export const ConnectionTargetState = wireEnum('ConnectionTargetState',
  ['pending', 'initiated', 'connected', 'skipped', 'failed', 'expired', 'not_connected'],
  '``tools/connectors/contract.py::TargetState``.');

// Only the identity and state of a target are declared; its optional display fields are not.
export const ConnectionOperationTarget = model('ConnectionOperationTarget', Payload, {
  name: req(str),
  kind: req(ConnectionTargetKind),
  action: req(ConnectionTargetAction),
  state: req(ConnectionTargetState),
}, {
  doc: '``Target.snapshot``: the link minted up front rides here, never in the model result. ``extra``\n'
    + 'keys a leg records (``tools``, ``hint``) are typed here as they appear.',
});

export const ConnectionRequestPayload = model('ConnectionRequestPayload', Payload, {
  op_id: req(str),
  seq: req(int),
  deadline_at: req(float),
  timeout_seconds: req(float),
  targets: req(list(ConnectionOperationTarget)),
  tool_call_id: opt(str),
}, {
  doc: '``ConnectionOperation.request_payload``: opens the card; also the ``pending_connection`` resume\n'
    + 'snapshot so a client that missed the event restores the card with the server\'s deadline.',
});
