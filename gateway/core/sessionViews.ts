import type { GatewayRuntime } from './gatewayRuntime.js';
import type { LiveSession } from './liveSessions.js';
import { projectMessage, type StoredMessage } from './sessionStore.js';

/** What a fake agent reports as its context window. */
export const CONTEXT_MAX_TOKENS = 128_000;
export const GATEWAY_VERSION = '0.0.0-reference';

export const tokensOf = (text: string): number => Math.ceil(text.length / 4);

/** The transcript of a live session: its stored row once it exists, else what it was seeded with. */
export function historyOf(rt: GatewayRuntime, session: LiveSession): StoredMessage[] {
  return rt.store.get(session.key)?.messages ?? session.pendingMessages;
}

export function visibleHistory(messages: readonly StoredMessage[]): Record<string, unknown>[] {
  return messages.map(projectMessage);
}

export function titleOf(rt: GatewayRuntime, session: LiveSession): string {
  return rt.store.get(session.key)?.title || session.pendingTitle || '';
}

export function statusOf(session: LiveSession): 'idle' | 'starting' | 'working' | 'resuming' {
  if (session.hydrating) return 'resuming';
  if (session.turn) return 'working';
  if (session.agent === 'building') return 'starting';
  return 'idle';
}

export function usageOf(messages: readonly StoredMessage[], model: string): Record<string, unknown> {
  let input = 0;
  let output = 0;
  let calls = 0;
  for (const message of messages) {
    if (message.role === 'user') input += tokensOf(message.text);
    if (message.role === 'assistant') {
      output += tokensOf(message.text);
      calls += 1;
    }
  }
  const total = input + output;
  return {
    model,
    input,
    output,
    reasoning: 0,
    prompt: input,
    completion: output,
    total,
    calls,
    context_used: total,
    context_max: CONTEXT_MAX_TOKENS,
    context_percent: Math.floor((total * 100) / CONTEXT_MAX_TOKENS),
  };
}

/** The lazy `info` of a session whose agent is not built yet (spec §3.2). */
export function lazyInfo(rt: GatewayRuntime, session: LiveSession): Record<string, unknown> {
  const info: Record<string, unknown> = { model: session.model };
  if (session.provider !== null) info['provider'] = session.provider;
  Object.assign(info, {
    tools: {},
    skills: {},
    cwd: session.cwd,
    branch: null,
    project: null,
    lazy: true,
    desktop_contract: rt.desktopContract,
    profile_name: session.profile,
  });
  return info;
}

/** The full `SessionLiveInfo` of a built agent (the `session.info` event). */
export function fullInfo(rt: GatewayRuntime, session: LiveSession): Record<string, unknown> {
  return {
    model: session.model,
    provider: session.provider ?? 'reference',
    reasoning_effort: session.reasoningEffort ?? '',
    reasoning_effort_wire: session.reasoningEffort ?? '',
    service_tier: '',
    fast: session.fast ?? false,
    yolo: false,
    approval_mode: 'manual',
    tools: {},
    skills: {},
    cwd: session.cwd,
    branch: null,
    project: null,
    terminal_backend: 'local',
    personality: '',
    running: session.turn !== undefined,
    turn_started_at: session.turn?.startedAt ?? null,
    title: titleOf(rt, session),
    stored_session_id: session.key,
    desktop_contract: rt.desktopContract,
    version: GATEWAY_VERSION,
    release_date: '',
    update_behind: null,
    update_command: '',
    usage: usageOf(historyOf(rt, session), session.model),
    profile_name: session.profile,
    mcp_servers: [],
    system_prompt: null,
    credential_warning: null,
    lazy: false,
  };
}

export function infoOf(rt: GatewayRuntime, session: LiveSession): Record<string, unknown> {
  return session.agent === 'ready' ? fullInfo(rt, session) : lazyInfo(rt, session);
}

export interface SnapshotOptions {
  readonly omitMessages?: boolean;
  readonly deferHistory?: boolean;
  readonly resumed?: string;
}

/** `LiveSessionSnapshot`: the body of `session.resume` and `session.activate` results. */
export function snapshotOf(rt: GatewayRuntime, session: LiveSession, options: SnapshotOptions = {}): Record<string, unknown> {
  const history = historyOf(rt, session);
  const withheld = options.omitMessages === true || options.deferHistory === true;
  const turn = session.turn;
  const snapshot: Record<string, unknown> = {
    session_id: session.id,
    message_count: history.length,
    messages: withheld ? [] : visibleHistory(history),
    info: infoOf(rt, session),
    stored_session_id: session.key,
  };
  if (options.resumed !== undefined) snapshot['resumed'] = options.resumed;
  if (options.deferHistory) snapshot['hydrating'] = true;
  else if (options.omitMessages) snapshot['messages_omitted'] = true;
  Object.assign(snapshot, {
    session_key: session.key,
    running: turn !== undefined,
    turn_started_at: turn?.startedAt ?? null,
    started_at: session.startedAt,
    status: options.deferHistory ? 'resuming' : statusOf(session),
    inflight: turn
      ? { assistant: turn.assistant, streaming: true, user: turn.user, display_kind: turn.displayKind ?? null, corrections: [...turn.corrections] }
      : null,
    queued: session.queue[0] ? { user: session.queue[0].text } : null,
    open_requests: [],
  });
  return snapshot;
}
