import type { PluginSpec } from '../hooks/pluginSpecs.js';
import { SessionHooks } from '../hooks/sessionHooks.js';
import { compiledContracts } from './contract/compiledContracts.js';
import { Dispatcher } from './dispatcher.js';
import { FakeAgent } from './fakeAgent.js';
import { GatewayConnection, type TransportLink } from './gatewayConnection.js';
import { GatewayRuntime, type RuntimeSettings } from './gatewayRuntime.js';
import { hermesHandlers } from './handlers/index.js';
import type { InboundGate } from './inboundGate.js';
import type { LifecycleEvents } from './lifecycleEvents.js';
import type { OutboundFunnel } from './outboundFunnel.js';
import { ParamsAdmission } from './paramsAdmission.js';
import { SchemaResponder } from './schemaResponder.js';
import { SessionLifecycle } from './sessionLifecycle.js';

export interface CoreOptions extends RuntimeSettings {
  readonly contractPaths: readonly string[];
  readonly skin: Record<string, unknown>;
  readonly plugins: readonly PluginSpec[];
  readonly hookTimeoutMs: number;
}

/** Close code sent to every socket when the gateway restarts (1012 = service restart). */
export const RESTART_CLOSE_CODE = 1012;

/** The transport-free reference gateway: connections in, frames out through one funnel. */
export class GatewayCore {
  readonly rt: GatewayRuntime;
  readonly sessions: SessionLifecycle;
  readonly agent: FakeAgent;
  /** The session lifecycle hooks: the plugins' hook bus and the `session.hook` observer stream. */
  readonly hooks: SessionHooks;
  private readonly dispatcher: Dispatcher;
  private nextConnection = 1;

  constructor(private readonly options: CoreOptions) {
    const { contracts, validators } = compiledContracts(options.contractPaths, options.log);
    this.rt = new GatewayRuntime(
      {
        legacyMessages: options.legacyMessages,
        dataDir: options.dataDir,
        buildDelayMs: options.buildDelayMs,
        orphanGraceMs: options.orphanGraceMs,
        maxResumeMessages: options.maxResumeMessages,
        seed: options.seed,
        replay: options.replay,
        strict: options.strict,
        log: options.log,
      },
      contracts,
      validators,
    );
    this.hooks = new SessionHooks(this.rt, { plugins: options.plugins, timeoutMs: options.hookTimeoutMs });
    this.agent = new FakeAgent(this.rt, (session) => this.sessions.ensureRow(session));
    this.sessions = new SessionLifecycle(this.rt, this.agent, this.hooks);
    const handlers = hermesHandlers({ rt: this.rt, sessions: this.sessions, agent: this.agent, hooks: this.hooks });
    const admission = new ParamsAdmission(contracts, validators, options.legacyMessages);
    const responder = new SchemaResponder(contracts, validators, options.seed);
    this.dispatcher = new Dispatcher(this.rt, admission, responder, handlers);
  }

  get lifecycle(): LifecycleEvents {
    return this.rt.lifecycle;
  }

  get funnel(): OutboundFunnel {
    return this.rt.funnel;
  }

  get inbound(): InboundGate {
    return this.rt.inbound;
  }

  get replayEpoch(): string {
    return this.rt.replayEpoch;
  }

  /** A new client connection. One that receives events gets `gateway.ready` as its first frame. */
  connect(link: TransportLink): GatewayConnection {
    const connection = new GatewayConnection(`c${this.nextConnection++}`, link, link.kind !== 'http');
    if (!connection.eventsEnabled) return connection;
    this.rt.connections.add(connection);
    const payload = { skin: this.options.skin, change_events: true, heartbeat: true, replay_epoch: this.rt.replayEpoch };
    // The ready frame is built by the transport, not emitted by a session: checked only where it is declared.
    if (this.rt.contracts.notifications.has('gateway.ready')) this.rt.checker.checkEvent('gateway.ready', payload);
    this.rt.funnel.send(connection, { kind: 'ready', frame: { jsonrpc: '2.0', method: 'event', params: { type: 'gateway.ready', payload } } });
    return connection;
  }

  receive(connection: GatewayConnection, text: string): Promise<void> {
    return this.dispatcher.receive(connection, text);
  }

  disconnect(connection: GatewayConnection, code: number, reason: string): void {
    if (!connection.open) return;
    this.sessions.connectionClosed(connection, code, reason);
  }

  /**
   * One HTTP POST body in, the response body out (undefined for a notification). Sessions created over HTTP are
   * bound to a connection without events that never disconnects, so they are never reaped.
   */
  async handleHttp(body: string): Promise<string | undefined> {
    let answer: string | undefined;
    const link: TransportLink = { kind: 'http', send: (text) => (answer = text), close: () => undefined };
    const connection = this.connect(link);
    // Over WebSocket an empty frame is ignored; an empty POST body still deserves an answer.
    if (body.trim() === '') this.dispatcher.parseError(connection);
    else await this.dispatcher.receive(connection, body);
    return answer;
  }

  /** Same stored rows, a new replay epoch, every socket closed and every live session gone. */
  restart(): void {
    this.dropEverything('gateway restart');
    this.rt.newEpoch();
  }

  close(): void {
    this.dropEverything('gateway shutdown');
    this.rt.timers.cancelAll();
  }

  private dropEverything(reason: string): void {
    for (const connection of [...this.rt.connections]) {
      connection.open = false;
      this.rt.connections.delete(connection);
      connection.link.close(RESTART_CLOSE_CODE, reason);
    }
    this.sessions.shutdown();
  }
}
