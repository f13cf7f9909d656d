/** `prompt.submit` (`tui_gateway/contracts/prompt_voice.py`): the turn entry point that drives a session's lifecycle. */
import { SessionParams } from './commonModels.js';
import { Result, bool, dflt, dict, int, json, list, method, model, nullable, opt, str, wireEnum } from './modelDsl.js';

const PromptSubmitParams = model('PromptSubmitParams', SessionParams, {
  text: dflt(json, ''),
  display_kind: opt(str),
  interrupted: opt(bool),
  queued: opt(bool),
  surface: opt(str),
  voice_context: opt(str),
  title_preview: opt(str),
  truncate_before_user_ordinal: opt(int),
  truncate_before_row_id: opt(int),
  truncate_before_message_id: opt(str),
  confirm_truncate: opt(bool),
  confirm_empty_truncate: opt(bool),
  rebind_survivor_row_ids: opt(list(int)),
}, {
  doc: '``text`` is normally a string; the relay / hosted paths may hand a structured (parts list)\n'
    + 'payload, and the busy path renders it. Truncation (rewind / edit / regenerate) needs explicit\n'
    + 'consent: ``confirm_truncate`` plus one durable target (``truncate_before_row_id`` preferred,\n'
    + '``truncate_before_message_id``, or the legacy ``truncate_before_user_ordinal``).',
});

const PromptSubmitStatus = wireEnum('PromptSubmitStatus', ['streaming', 'queued', 'steered', 'redirected']);

const PromptSubmitResult = model('PromptSubmitResult', Result, {
  status: opt(PromptSubmitStatus),
  voice_stopped: opt(bool),
  survivor_user_row_ids: opt(list(nullable(int))),
  survivor_row_id_map: opt(dict(nullable(int))),
  turn_isolation: opt(bool),
}, {
  doc: '``status`` is absent only on the typed-stop-phrase reply (``voice_stopped``). After a\n'
    + 'truncation the survivor row ids let the client rebind its cached ``rowId``s (``None`` map\n'
    + 'entries: drop the cached id). ``turn_isolation`` marks a compute-host dispatch.',
});

export const promptSubmitMethod = method('prompt.submit', PromptSubmitParams, PromptSubmitResult,
  'Send a user turn to a live session; busy sessions queue / steer / redirect instead of refusing.');
