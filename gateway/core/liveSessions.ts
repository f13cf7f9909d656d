import { randomUUID } from 'node:crypto';
import type { GatewayConnection } from './gatewayConnection.js';
import type { StoredMessage } from './sessionStore.js';
import type { TimerHandle } from './timers.js';

/** `none`: a lazy session without an agent; `prompt.submit` upgrades it. */
export type AgentState = 'none' | 'building' | 'ready' | 'failed';

/** One accepted prompt: its text, display kind and the input id minted for it (SHARED_SESSION_WIRE `inputs`). */
export interface QueuedTurn {
  readonly text: string;
  readonly displayKind: string | undefined;
  readonly inputId: string;
}

export interface ActiveTurn {
  readonly user: string;
  readonly displayKind: string | undefined;
  /** The input ids of the turn: its prompt's, then those of accepted corrections. */
  readonly inputIds: string[];
  readonly startedAt: number;
  assistant: string;
  readonly corrections: string[];
  readonly timers: Set<TimerHandle>;
  /** Ends the turn early with `message.complete {status: "interrupted"}`; nothing is committed. */
  interrupt(): void;
}

/** One live (runtime) session: an 8-hex runtime id in front of a stored key. */
export interface LiveSession {
  readonly id: string;
  readonly key: string;
  readonly startedAt: number;
  lastActive: number;
  /** The connection its events go to; changed only through {@link LiveSessions.bind}, which keeps the index. */
  readonly binding: GatewayConnection | undefined;
  model: string;
  readonly provider: string | null;
  readonly reasoningEffort: string | null;
  readonly fast: boolean | null;
  cwd: string;
  /** The workspace persisted with the stored row: only a cwd the client sent explicitly. */
  workspace: string | null;
  cols: number;
  readonly source: string;
  readonly profile: string | null;
  readonly closeOnDisconnect: boolean;
  /** How it was opened: only a `session.create` fires `session_pre_init` / `session_post_init`. */
  readonly via: 'create' | 'resume' | 'branch';
  /** The effective `model_options` after `session_pre_init` (null when none were given). */
  readonly modelOptions: Readonly<Record<string, unknown>> | null;
  pendingTitle: string | null;
  pendingHidden: boolean;
  /** The transcript while no stored row exists (seeded messages of an unpersisted create). */
  pendingMessages: StoredMessage[];
  agent: AgentState;
  buildError: string | null;
  agentWaiters: Array<(failure: string | null) => void>;
  buildTimer: TimerHandle | undefined;
  turn: ActiveTurn | undefined;
  queue: QueuedTurn[];
  interactionCount: number;
  /** Input ids minted so far (`I1`, `I2`, …), one per accepted prompt or correction. */
  inputsMinted: number;
  hydrating: boolean;
  reaper: TimerHandle | undefined;
  closed: boolean;
  /** The `session_cleanup` dispatch, started once when the session ends. */
  cleanup: Promise<void> | undefined;
}

export type NewLiveSession = Pick<LiveSession, 'key' | 'model' | 'provider' | 'reasoningEffort' | 'fast' | 'cwd' | 'workspace' | 'cols' | 'source' | 'profile' | 'closeOnDisconnect'> &
  Partial<Pick<LiveSession, 'pendingTitle' | 'pendingHidden' | 'pendingMessages' | 'agent' | 'modelOptions'>>;

const MAX_TOMBSTONES = 4096;

/** Adds `value` under `key` of a map of sets (created on first use). */
function addTo<K, V>(index: Map<K, Set<V>>, key: K, value: V): void {
  let values = index.get(key);
  if (!values) index.set(key, (values = new Set()));
  values.add(value);
}

function removeFrom<K, V>(index: Map<K, Set<V>>, key: K, value: V): void {
  const values = index.get(key);
  if (!values) return;
  values.delete(value);
  if (values.size === 0) index.delete(key);
}

/**
 * Live sessions in insertion order, plus tombstones of sessions whose agent build failed. Indexed by stored key
 * and by bound connection, so that neither a lookup nor a dropped connection walks every live session.
 */
export class LiveSessions {
  private readonly sessions = new Map<string, LiveSession>();
  private readonly byStoredKey = new Map<string, Set<LiveSession>>();
  private readonly byConnection = new Map<GatewayConnection, Set<LiveSession>>();
  private readonly failures = new Map<string, string>();
  private readonly issued = new Set<string>();

  /** `id` comes from {@link reserveId} when hooks must name the session before it opens. */
  open(init: NewLiveSession, binding: GatewayConnection | undefined, nowSeconds: number, via: LiveSession['via'], id = this.reserveId()): LiveSession {
    // Every field named, no `...init`: V8 builds a spread-then-extended literal of this size about 50× slower.
    const session: LiveSession = {
      key: init.key,
      model: init.model,
      provider: init.provider,
      reasoningEffort: init.reasoningEffort,
      fast: init.fast,
      cwd: init.cwd,
      workspace: init.workspace,
      cols: init.cols,
      source: init.source,
      profile: init.profile,
      closeOnDisconnect: init.closeOnDisconnect,
      id,
      via,
      modelOptions: init.modelOptions ?? null,
      startedAt: nowSeconds,
      lastActive: nowSeconds,
      binding,
      pendingTitle: init.pendingTitle ?? null,
      pendingHidden: init.pendingHidden ?? false,
      pendingMessages: init.pendingMessages ?? [],
      agent: init.agent ?? 'building',
      buildError: null,
      agentWaiters: [],
      buildTimer: undefined,
      turn: undefined,
      queue: [],
      interactionCount: 0,
      inputsMinted: 0,
      hydrating: false,
      reaper: undefined,
      closed: false,
      cleanup: undefined,
    };
    this.sessions.set(session.id, session);
    addTo(this.byStoredKey, session.key, session);
    if (binding) addTo(this.byConnection, binding, session);
    return session;
  }

  /** Routes the session's events to `connection` (undefined: to nobody). */
  bind(session: LiveSession, connection: GatewayConnection | undefined): void {
    if (session.binding === connection) return;
    if (session.binding) removeFrom(this.byConnection, session.binding, session);
    (session as { binding: GatewayConnection | undefined }).binding = connection;
    if (connection && this.sessions.get(session.id) === session) addTo(this.byConnection, connection, session);
  }

  /** The live sessions bound to `connection`, oldest first. */
  boundTo(connection: GatewayConnection): LiveSession[] {
    return [...(this.byConnection.get(connection) ?? [])];
  }

  get(id: string): LiveSession | undefined {
    return this.sessions.get(id);
  }

  byKey(key: string): LiveSession | undefined {
    return this.byStoredKey.get(key)?.values().next().value;
  }

  byPendingTitle(title: string): LiveSession | undefined {
    for (const session of this.sessions.values()) if (session.pendingTitle === title) return session;
    return undefined;
  }

  all(): LiveSession[] {
    return [...this.sessions.values()];
  }

  remove(session: LiveSession): void {
    if (this.sessions.get(session.id) !== session) return;
    this.sessions.delete(session.id);
    removeFrom(this.byStoredKey, session.key, session);
    if (session.binding) removeFrom(this.byConnection, session.binding, session);
  }

  markFailed(session: LiveSession, message: string): void {
    this.failures.set(session.id, message);
    if (this.failures.size > MAX_TOMBSTONES) {
      const oldest = this.failures.keys().next();
      if (!oldest.done) this.failures.delete(oldest.value);
    }
  }

  /** The build error of a session that ended because its agent build failed. */
  failure(id: string): string | undefined {
    return this.failures.get(id);
  }

  clear(): void {
    this.sessions.clear();
    this.byStoredKey.clear();
    this.byConnection.clear();
    this.failures.clear();
  }

  /** A fresh 8-hex runtime id, never handed out twice. */
  reserveId(): string {
    for (;;) {
      // randomUUID draws from a cached entropy pool: far cheaper per id than a randomBytes call.
      const id = randomUUID().slice(0, 8);
      if (!this.issued.has(id)) {
        this.issued.add(id);
        return id;
      }
    }
  }
}

/** A fresh input id of the session, for one accepted prompt or correction. */
export function mintInputId(session: LiveSession): string {
  session.inputsMinted += 1;
  return `I${session.inputsMinted}`;
}
