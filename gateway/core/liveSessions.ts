import { randomBytes } from 'node:crypto';
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
  binding: GatewayConnection | undefined;
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

/** Live sessions in insertion order, plus tombstones of sessions whose agent build failed. */
export class LiveSessions {
  private readonly sessions = new Map<string, LiveSession>();
  private readonly failures = new Map<string, string>();
  private readonly issued = new Set<string>();

  /** `id` comes from {@link reserveId} when hooks must name the session before it opens. */
  open(init: NewLiveSession, binding: GatewayConnection | undefined, nowSeconds: number, via: LiveSession['via'], id = this.reserveId()): LiveSession {
    const session: LiveSession = {
      ...init,
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
    return session;
  }

  get(id: string): LiveSession | undefined {
    return this.sessions.get(id);
  }

  byKey(key: string): LiveSession | undefined {
    for (const session of this.sessions.values()) if (session.key === key) return session;
    return undefined;
  }

  byPendingTitle(title: string): LiveSession | undefined {
    for (const session of this.sessions.values()) if (session.pendingTitle === title) return session;
    return undefined;
  }

  all(): LiveSession[] {
    return [...this.sessions.values()];
  }

  remove(session: LiveSession): void {
    this.sessions.delete(session.id);
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
    this.failures.clear();
  }

  /** A fresh 8-hex runtime id, never handed out twice. */
  reserveId(): string {
    for (;;) {
      const id = randomBytes(4).toString('hex');
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
