import type { SessionHooks } from '../hooks/sessionHooks.js';
import type { FakeAgent } from './fakeAgent.js';
import type { GatewayConnection } from './gatewayConnection.js';
import type { GatewayRuntime } from './gatewayRuntime.js';
import type { SessionCloseReason } from './lifecycleEvents.js';
import type { LiveSession, NewLiveSession } from './liveSessions.js';
import { fullInfo } from './sessionViews.js';
import type { StoredRow } from './sessionStore.js';
import { ErrorCode, GatewayError, sessionNotFound } from './wireErrors.js';

/** Opening, binding, building, persisting and ending live sessions. */
export class SessionLifecycle {
  constructor(
    private readonly rt: GatewayRuntime,
    private readonly agent: FakeAgent,
    private readonly hooks: SessionHooks,
  ) {}

  open(init: NewLiveSession, connection: GatewayConnection | undefined, via: LiveSession['via'], id?: string): LiveSession {
    const session = this.rt.live.open(init, connection, this.rt.nowSeconds(), via, id);
    this.rt.lifecycle.emit({ type: 'session.created', sessionId: session.id, storedKey: session.key, model: session.model, via });
    return session;
  }

  /** The live session behind a runtime id: 4001 when unknown, 5032 when its agent build failed. */
  require(id: unknown): LiveSession {
    const key = typeof id === 'string' ? id : '';
    const session = this.rt.live.get(key);
    if (session) return session;
    const failure = this.rt.live.failure(key);
    if (failure !== undefined) throw new GatewayError(ErrorCode.AGENT_INIT_FAILED, failure);
    throw sessionNotFound();
  }

  /** Routes the session's events to `connection` and cancels a pending orphan reap. */
  bind(session: LiveSession, connection: GatewayConnection): void {
    this.rt.timers.cancel(session.reaper);
    session.reaper = undefined;
    session.binding = connection;
  }

  /** The stored row of a session, created on first need (first prompt, title set) from its pending state. */
  ensureRow(session: LiveSession): StoredRow {
    const existing = this.rt.store.get(session.key);
    if (existing) return existing;
    const row = this.rt.store.create({
      key: session.key,
      title: session.pendingTitle ?? '',
      hidden: session.pendingHidden,
      source: session.source,
      cwd: session.workspace,
      model: session.model,
      messages: session.pendingMessages,
    });
    session.pendingMessages = [];
    session.pendingTitle = null;
    return row;
  }

  /** Starts the agent build after `delayMs` (the reply goes out first). */
  scheduleBuild(session: LiveSession, delayMs = this.rt.settings.buildDelayMs): void {
    session.agent = 'building';
    this.rt.timers.cancel(session.buildTimer);
    session.buildTimer = this.rt.timers.after(delayMs, () => this.finishBuild(session, true));
  }

  /**
   * Builds synchronously (eager resume, branches). The `session.info` event is left to the caller, who sends it
   * after the reply so that no event precedes the runtime id it belongs to.
   */
  buildNow(session: LiveSession): void {
    this.finishBuild(session, false);
  }

  announce(session: LiveSession): void {
    if (!session.closed && session.agent === 'ready') this.rt.events.emit(session, 'session.info', fullInfo(this.rt, session));
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
    this.rt.timers.cancel(session.buildTimer);
    this.rt.timers.cancel(session.reaper);
    this.agent.cancel(session);
    this.rt.live.remove(session);
    this.settleWaiters(session, 'session closed');
    this.rt.lifecycle.emit({
      type: 'session.closed',
      sessionId: session.id,
      storedKey: session.key,
      reason,
      interactionCount: session.interactionCount,
    });
    void this.hooks.cleanup(session, reason);
    return true;
  }

  /** A transport went away: reap `close_on_disconnect` sessions now, hand the others to the orphan reaper. */
  connectionClosed(connection: GatewayConnection, code: number, reason: string): void {
    connection.open = false;
    connection.closedWith = { code, reason };
    this.rt.connections.delete(connection);
    for (const session of this.rt.live.all()) if (session.binding === connection) this.departed(session, code, reason);
    this.hooks.forget(connection);
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
    session.binding = undefined;
    this.rt.timers.cancel(session.reaper);
    session.reaper = this.rt.timers.after(this.rt.settings.orphanGraceMs, () => this.close(session, { kind: 'orphan_reap' }));
  }

  shutdown(): void {
    for (const session of this.rt.live.all()) this.close(session, { kind: 'shutdown' });
    this.rt.live.clear();
  }

  private finishBuild(session: LiveSession, announce: boolean): void {
    session.buildTimer = undefined;
    if (session.closed || session.agent === 'ready' || session.agent === 'failed') return;
    const failure = this.agent.buildFailure(session.model);
    if (failure !== undefined) {
      session.agent = 'failed';
      session.buildError = failure;
      this.rt.live.markFailed(session, failure);
      this.rt.lifecycle.emit({ type: 'agent.build_failed', sessionId: session.id, model: session.model, message: failure });
      this.rt.events.emit(session, 'error', { message: failure });
      this.settleWaiters(session, failure);
      this.close(session, { kind: 'build_failed', message: failure });
      return;
    }
    // Only a created session fires session_post_init (Mellea: start_session does; clones and bare builds do not).
    const postInit = session.via === 'create' ? this.hooks.postInit(session) : undefined;
    if (postInit) void postInit.then(() => this.becomeReady(session, announce));
    else this.becomeReady(session, announce);
  }

  private becomeReady(session: LiveSession, announce: boolean): void {
    if (session.closed || session.agent === 'ready' || session.agent === 'failed') return;
    session.agent = 'ready';
    this.rt.lifecycle.emit({ type: 'agent.built', sessionId: session.id, model: session.model });
    if (announce) this.announce(session);
    this.settleWaiters(session, null);
    // A redirect sent while the agent was still building waits in the queue for it.
    if (announce) this.agent.drain(session);
  }

  private settleWaiters(session: LiveSession, failure: string | null): void {
    const waiters = session.agentWaiters;
    session.agentWaiters = [];
    for (const waiter of waiters) waiter(failure);
  }
}
