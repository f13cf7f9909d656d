import type { SessionHooks } from '../hooks/sessionHooks.js';
import type { Clock } from './clock.js';
import type { FakeAgent } from './fakeAgent.js';
import type { GatewayConnection } from './gatewayConnection.js';
import type { LifecycleEvents, SessionCloseReason } from './lifecycleEvents.js';
import type { LiveSession, LiveSessions, NewLiveSession } from './liveSessions.js';
import type { ServerRequests } from './serverRequests.js';
import type { SessionEvents } from './sessionEvents.js';
import type { SessionStore, StoredRow } from './sessionStore.js';
import type { SessionViews } from './sessionViews.js';
import { ensureStoredRow } from './storedRows.js';
import type { Timers } from './timers.js';
import { ErrorCode, GatewayError, sessionNotFound } from './wireErrors.js';

export interface SessionLifecycleDeps {
  readonly live: LiveSessions;
  readonly store: SessionStore;
  readonly timers: Timers;
  readonly clock: Clock;
  readonly lifecycle: LifecycleEvents;
  readonly events: SessionEvents;
  readonly views: SessionViews;
  readonly agent: FakeAgent;
  readonly hooks: SessionHooks;
  readonly serverRequests: ServerRequests;
  readonly buildDelayMs: number;
  readonly orphanGraceMs: number;
}

/** Opening, binding, building, persisting and ending live sessions. */
export class SessionLifecycle {
  constructor(private readonly deps: SessionLifecycleDeps) {}

  open(init: NewLiveSession, connection: GatewayConnection | undefined, via: LiveSession['via'], id?: string): LiveSession {
    const session = this.deps.live.open(init, connection, this.deps.clock.nowSeconds(), via, id);
    this.deps.lifecycle.emit({ type: 'session.created', sessionId: session.id, storedKey: session.key, model: session.model, via });
    return session;
  }

  /** The live session behind a runtime id: 4001 when unknown, 5032 when its agent build failed. */
  require(id: unknown): LiveSession {
    const key = typeof id === 'string' ? id : '';
    const session = this.deps.live.get(key);
    if (session) return session;
    const failure = this.deps.live.failure(key);
    if (failure !== undefined) throw new GatewayError(ErrorCode.AGENT_INIT_FAILED, failure);
    throw sessionNotFound();
  }

  /** Routes the session's events to `connection` and cancels a pending orphan reap. */
  bind(session: LiveSession, connection: GatewayConnection): void {
    this.deps.timers.cancel(session.reaper);
    session.reaper = undefined;
    this.deps.live.bind(session, connection);
  }

  ensureRow(session: LiveSession): StoredRow {
    return ensureStoredRow(this.deps.store, session);
  }

  /** Starts the agent build after `delayMs` (the reply goes out first). */
  scheduleBuild(session: LiveSession, delayMs = this.deps.buildDelayMs): void {
    session.agent = 'building';
    this.deps.timers.cancel(session.buildTimer);
    session.buildTimer = this.deps.timers.after(delayMs, () => this.finishBuild(session, true));
  }

  /**
   * The build a `session.create` reply has just been sent for. Without a build delay it runs at once, so that its
   * `session.info` leaves in the same socket write as the reply (a zero-delay timer would cost a write of its own).
   */
  buildAfterReply(session: LiveSession): void {
    if (this.deps.buildDelayMs > 0) return this.scheduleBuild(session);
    this.deps.timers.cancel(session.buildTimer);
    session.agent = 'building';
    this.finishBuild(session, true);
  }

  /**
   * Builds synchronously (eager resume, branches). The `session.info` event is left to the caller, who sends it
   * after the reply so that no event precedes the runtime id it belongs to.
   */
  buildNow(session: LiveSession): void {
    this.finishBuild(session, false);
  }

  announce(session: LiveSession): void {
    if (!session.closed && session.agent === 'ready') this.deps.events.emit(session, 'session.info', this.deps.views.fullInfo(session));
  }

  /** Resolves once the agent is ready (upgrading a lazy session); 5032 when the build fails, 4001 when closed. */
  waitForAgent(session: LiveSession): Promise<void> {
    if (session.agent === 'ready') return Promise.resolve();
    if (session.agent === 'failed') return Promise.reject(new GatewayError(ErrorCode.AGENT_INIT_FAILED, session.buildError ?? 'agent init failed'));
    if (session.agent === 'none') this.scheduleBuild(session);
    return new Promise((resolve, reject) => {
      session.agentWaiters.push((failure) => {
        if (failure === null) resolve();
        else if (session.agent === 'failed') reject(new GatewayError(ErrorCode.AGENT_INIT_FAILED, failure));
        else reject(sessionNotFound());
      });
    });
  }

  /**
   * Ends a live session once; a second call is a no-op answering false. The stored row stays. Teardown is done
   * before `session_cleanup` is dispatched, so no handler can stop or undo it; `session.cleanup` settles when the
   * awaited handlers are done.
   */
  close(session: LiveSession, reason: SessionCloseReason): boolean {
    if (session.closed) return false;
    session.closed = true;
    this.deps.timers.cancel(session.buildTimer);
    this.deps.timers.cancel(session.reaper);
    this.deps.serverRequests.withdrawSession(session.id, reason.kind === 'shutdown' ? 'shutdown' : 'session_closed');
    this.deps.agent.cancel(session);
    this.deps.live.remove(session);
    this.settleWaiters(session, 'session closed');
    this.deps.lifecycle.emit({
      type: 'session.closed',
      sessionId: session.id,
      storedKey: session.key,
      reason,
      interactionCount: session.interactionCount,
    });
    void this.deps.hooks.cleanup(session, reason);
    return true;
  }

  /** A transport went away: reap `close_on_disconnect` sessions now, hand the others to the orphan reaper. */
  connectionClosed(connection: GatewayConnection, code: number, reason: string): void {
    for (const session of this.deps.live.boundTo(connection)) this.departed(session, code, reason);
    this.deps.hooks.forget(connection);
  }

  /** A session opened for a connection that dropped while the open was under way is treated as dropped after it. */
  openedForGoneConnection(session: LiveSession, connection: GatewayConnection): void {
    if (connection.open || session.closed) return;
    this.departed(session, connection.closedWith?.code ?? 1006, connection.closedWith?.reason ?? '');
  }

  private departed(session: LiveSession, code: number, reason: string): void {
    if (session.closeOnDisconnect) {
      this.close(session, { kind: 'close_on_disconnect', code, reason });
      return;
    }
    this.deps.live.bind(session, undefined);
    this.deps.timers.cancel(session.reaper);
    session.reaper = this.deps.timers.after(this.deps.orphanGraceMs, () => this.close(session, { kind: 'orphan_reap' }));
  }

  shutdown(): void {
    for (const session of this.deps.live.all()) this.close(session, { kind: 'shutdown' });
    this.deps.live.clear();
  }

  private finishBuild(session: LiveSession, announce: boolean): void {
    session.buildTimer = undefined;
    if (session.closed || session.agent === 'ready' || session.agent === 'failed') return;
    const failure = this.deps.agent.buildFailure(session.model);
    if (failure !== undefined) {
      session.agent = 'failed';
      session.buildError = failure;
      this.deps.live.markFailed(session, failure);
      this.deps.lifecycle.emit({ type: 'agent.build_failed', sessionId: session.id, model: session.model, message: failure });
      this.deps.events.emit(session, 'error', { message: failure });
      this.settleWaiters(session, failure);
      this.close(session, { kind: 'build_failed', message: failure });
      return;
    }
    // Only a created session fires session_post_init (Mellea: start_session does; clones and bare builds do not).
    const postInit = session.via === 'create' ? this.deps.hooks.postInit(session) : undefined;
    if (postInit) void postInit.then(() => this.becomeReady(session, announce));
    else this.becomeReady(session, announce);
  }

  private becomeReady(session: LiveSession, announce: boolean): void {
    if (session.closed || session.agent === 'ready' || session.agent === 'failed') return;
    session.agent = 'ready';
    this.deps.lifecycle.emit({ type: 'agent.built', sessionId: session.id, model: session.model });
    if (announce) this.announce(session);
    this.settleWaiters(session, null);
    // A redirect sent while the agent was still building waits in the queue for it.
    if (announce) this.deps.agent.drain(session);
  }

  private settleWaiters(session: LiveSession, failure: string | null): void {
    const waiters = session.agentWaiters;
    session.agentWaiters = [];
    for (const waiter of waiters) waiter(failure);
  }
}
