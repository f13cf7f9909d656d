import type { LiveSession } from './liveSessions.js';
import type { OpenRequestEntry } from './serverRequests.js';
import { projectMessage, type SessionStore, type StoredMessage } from './sessionStore.js';

/** What a fake agent reports as its context window. */
export const CONTEXT_MAX_TOKENS = 128_000;
export const GATEWAY_VERSION = '0.0.0-reference';

export const tokensOf = (text: string): number => Math.ceil(text.length / 4);

/** The transcript of a live session: its stored row once it exists, else what it was seeded with. */
export function historyOf(store: SessionStore, session: LiveSession): StoredMessage[] {
  return store.get(session.key)?.messages ?? session.pendingMessages;
}

export function visibleHistory(messages: readonly StoredMessage[]): Record<string, unknown>[] {
  return messages.map(projectMessage);
}

export function titleOf(store: SessionStore, session: LiveSession): string {
  return store.get(session.key)?.title || session.pendingTitle || '';
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

export interface SnapshotOptions {
  readonly omitMessages?: boolean;
  readonly deferHistory?: boolean;
  readonly resumed?: string;
}

/** How live sessions look on the wire: `info` (lazy or full) and the `LiveSessionSnapshot` of resume and activate. */
export class SessionViews {
  constructor(
    private readonly store: SessionStore,
    /** `desktop_contract` of `session.info`: the first Hermes document's info.version. */
    private readonly desktopContract: number | string | null,
    /** The unanswered server requests of a session (`open_requests`). */
    private readonly openRequests: (sessionId: string) => OpenRequestEntry[],
  ) {}

  history(session: LiveSession): StoredMessage[] {
    return historyOf(this.store, session);
  }

  title(session: LiveSession): string {
    return titleOf(this.store, session);
  }

  /** The lazy `info` of a session whose agent is not built yet (spec §3.2). */
  lazyInfo(session: LiveSession): Record<string, unknown> {
    const info: Record<string, unknown> = { model: session.model };
    if (session.provider !== null) info['provider'] = session.provider;
    Object.assign(info, {
      tools: {},
      skills: {},
      cwd: session.cwd,
      branch: null,
      project: null,
      lazy: true,
      desktop_contract: this.desktopContract,
      profile_name: session.profile,
    });
    return info;
  }

  /** The full `SessionLiveInfo` of a built agent (the `session.info` event). */
  fullInfo(session: LiveSession): Record<string, unknown> {
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
      title: this.title(session),
      stored_session_id: session.key,
      desktop_contract: this.desktopContract,
      version: GATEWAY_VERSION,
      release_date: '',
      update_behind: null,
      update_command: '',
      usage: usageOf(this.history(session), session.model),
      profile_name: session.profile,
      mcp_servers: [],
      system_prompt: null,
      credential_warning: null,
      lazy: false,
    };
  }

  infoOf(session: LiveSession): Record<string, unknown> {
    return session.agent === 'ready' ? this.fullInfo(session) : this.lazyInfo(session);
  }

  /** `LiveSessionSnapshot`: the body of `session.resume` and `session.activate` results. */
  snapshotOf(session: LiveSession, options: SnapshotOptions = {}): Record<string, unknown> {
    const history = this.history(session);
    const withheld = options.omitMessages === true || options.deferHistory === true;
    const turn = session.turn;
    const snapshot: Record<string, unknown> = {
      session_id: session.id,
      message_count: history.length,
      messages: withheld ? [] : visibleHistory(history),
      info: this.infoOf(session),
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
      open_requests: this.openRequests(session.id),
    });
    return snapshot;
  }
}
