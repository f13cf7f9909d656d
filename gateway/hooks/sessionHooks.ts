import type { Clock } from '../core/clock.js';
import type { ContractChecker } from '../core/contractChecker.js';
import type { GatewayConnection } from '../core/gatewayConnection.js';
import type { SessionCloseReason } from '../core/lifecycleEvents.js';
import type { LiveSession } from '../core/liveSessions.js';
import type { OutboundFunnel } from '../core/outboundFunnel.js';
import type { SessionStore } from '../core/sessionStore.js';
import { historyOf } from '../core/sessionViews.js';
import { RecordPlugin } from './builtinPlugins.js';
import { HookBus } from './hookBus.js';
import { type ContextSnapshot, type GatewayPlugin, HOOK_NAMES, type HookException, type HookName, type HookPayload, type HookPayloads } from './hookTypes.js';
import { installPlugins, type PluginSpec } from './pluginSpecs.js';

export const HOOK_EVENT = 'session.hook';
export const CONTEXT_TYPE = 'SimpleContext';

export interface SessionHooksDeps {
  readonly funnel: OutboundFunnel;
  readonly checker: ContractChecker;
  readonly store: SessionStore;
  readonly clock: Clock;
  readonly log: (line: string) => void;
  /** Whether a loaded document declares the `session.hook` event (else nothing is published). */
  readonly served: boolean;
  readonly orphanGraceMs: number;
  readonly plugins: readonly PluginSpec[];
  readonly timeoutMs: number;
}

/** What `session.create` asks for before `session_pre_init` may change it. */
export interface InitRequest {
  readonly backendName: string;
  readonly modelId: string;
  readonly modelOptions: Record<string, unknown> | null;
}

/** The exception a cleanup reports for each way a session can end (null: closed on request). */
function exceptionOf(reason: SessionCloseReason, orphanGraceMs: number): HookException | null {
  switch (reason.kind) {
    case 'client_close':
      return null;
    case 'close_on_disconnect':
      return { type: 'ConnectionClosed', message: `connection closed with code ${reason.code}${reason.reason ? `: ${reason.reason}` : ''}` };
    case 'build_failed':
      return { type: 'AgentBuildError', message: reason.message };
    case 'orphan_reap':
      return { type: 'OrphanReaped', message: `no client resumed the detached session within ${orphanGraceMs} ms` };
    case 'shutdown':
      return { type: 'GatewayShutdown', message: 'the gateway shut down' };
  }
}

/**
 * The four session lifecycle hooks: builds their payloads, runs the plugins' handlers on the hook bus and
 * publishes the effective payload as a `session.hook` event to every subscribed connection (only when a loaded
 * document declares that event). Hook events are an observer stream: they carry no `seq` and are not kept in
 * the session's replay ring (see the README).
 */
export class SessionHooks {
  readonly bus: HookBus;
  readonly plugins: readonly GatewayPlugin[];
  private readonly observers = new Map<GatewayConnection, ReadonlySet<HookName>>();

  constructor(private readonly deps: SessionHooksDeps) {
    this.bus = new HookBus(deps.timeoutMs, deps.log);
    this.plugins = installPlugins(deps.plugins, this.bus);
  }

  /** Makes `connection` an observer of `hooks` (all four when null) of every session; returns them in hook order. */
  subscribe(connection: GatewayConnection, hooks: readonly HookName[] | null): HookName[] {
    const wanted = HOOK_NAMES.filter((hook) => hooks === null || hooks.includes(hook));
    if (connection.eventsEnabled) this.observers.set(connection, new Set(wanted));
    return wanted;
  }

  forget(connection: GatewayConnection): void {
    this.observers.delete(connection);
  }

  /** Fires `session_pre_init` and resolves with the model and options the session is to use. */
  async preInit(sessionId: string, request: InitRequest): Promise<{ modelId: string; modelOptions: Record<string, unknown> | null }> {
    if (!this.wanted('session_pre_init')) return { modelId: request.modelId, modelOptions: request.modelOptions === null ? null : { ...request.modelOptions } };
    const payload: HookPayloads['session_pre_init'] = {
      hook: 'session_pre_init',
      session_id: sessionId,
      timestamp: this.timestamp(),
      backend_name: request.backendName,
      model_id: request.modelId,
      model_options: request.modelOptions,
      context_type: CONTEXT_TYPE,
    };
    const effective = (await this.fire(payload)) ?? payload;
    return { modelId: effective.model_id, modelOptions: effective.model_options === null ? null : { ...effective.model_options } };
  }

  /** Fires `session_post_init`; undefined when it is already done (no handler to wait for). */
  postInit(session: LiveSession): Promise<unknown> | undefined {
    if (!this.wanted('session_post_init')) return undefined;
    const payload: HookPayloads['session_post_init'] = {
      hook: 'session_post_init',
      session_id: session.id,
      timestamp: this.timestamp(),
      model_id: session.model,
      context: this.contextOf(session),
    };
    // A session closed while its post_init handlers ran never became usable: its cleanup already went out.
    return this.fire(payload, () => !session.closed);
  }

  /** Fires `session_reset` with the context as it is now (the caller empties it afterwards). */
  async reset(session: LiveSession): Promise<void> {
    if (!this.wanted('session_reset')) return;
    await this.fire({ hook: 'session_reset', session_id: session.id, timestamp: this.timestamp(), previous_context: this.contextOf(session) });
  }

  /** Fires `session_cleanup` once per session; the returned promise settles when the awaited handlers are done. */
  cleanup(session: LiveSession, reason: SessionCloseReason): Promise<void> {
    if (session.cleanup) return session.cleanup;
    if (!this.wanted('session_cleanup')) return (session.cleanup = Promise.resolve());
    session.cleanup = Promise.resolve(
      this.fire({
        hook: 'session_cleanup',
        session_id: session.id,
        timestamp: this.timestamp(),
        context: this.contextOf(session),
        interaction_count: session.interactionCount,
        exception: exceptionOf(reason, this.deps.orphanGraceMs),
      }),
    ).then(() => undefined);
    return session.cleanup;
  }

  /** Every payload the `record` plugins saw, in order. */
  recorded(): HookPayload[] {
    return this.plugins.flatMap((plugin) => (plugin instanceof RecordPlugin ? plugin.payloads : []));
  }

  /** Waits for the fire-and-forget handlers started so far. */
  drain(): Promise<void> {
    return this.bus.drain();
  }

  contextOf(session: LiveSession): ContextSnapshot {
    const history = historyOf(this.deps.store, session);
    return { type: CONTEXT_TYPE, turns: history.filter((message) => message.role === 'user').length, last_role: history.at(-1)?.role ?? null };
  }

  /**
   * Whether anything would see `hook` now: a plugin's handler, or an observer that asked for it. A hook nothing sees
   * has no payload to build (its timestamp and the context walk are a noticeable part of a create otherwise).
   */
  private wanted(hook: HookName): boolean {
    if (this.bus.has(hook)) return true;
    if (!this.deps.served) return false;
    for (const [connection, hooks] of this.observers) if (connection.open && hooks.has(hook)) return true;
    return false;
  }

  /** Runs the handlers (when the hook has any), then publishes the effective payload; undefined when all is done now. */
  private fire<P extends HookPayload>(payload: P, stillWanted: () => boolean = () => true): Promise<P | undefined> | undefined {
    if (!this.bus.has(payload.hook)) {
      this.publish(payload);
      return undefined;
    }
    return this.bus.fire(payload).then(
      (effective) => {
        if (stillWanted()) this.publish(effective);
        return effective;
      },
      (error: unknown) => {
        this.deps.log(`hook ${payload.hook} dispatch failed: ${(error as Error)?.message ?? String(error)}`);
        if (stillWanted()) this.publish(payload);
        return undefined;
      },
    );
  }

  private publish(payload: HookPayload): void {
    if (!this.deps.served) return;
    this.deps.checker.checkEvent(HOOK_EVENT, payload);
    for (const [connection, hooks] of [...this.observers]) {
      if (!connection.open) {
        this.observers.delete(connection);
        continue;
      }
      if (!hooks.has(payload.hook)) continue;
      const params = { type: HOOK_EVENT, session_id: payload.session_id, payload: structuredClone(payload) };
      this.deps.funnel.send(connection, { kind: 'event', frame: { jsonrpc: '2.0', method: 'event', params }, sessionId: payload.session_id });
    }
  }

  private timestamp(): string {
    return new Date(this.deps.clock.now()).toISOString();
  }
}
