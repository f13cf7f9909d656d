import { AuthRelaxations } from '../auth/authRelaxations.js';
import type { FaultSeams } from '../faults/faultTypes.js';
import type { PluginSpec } from '../hooks/pluginSpecs.js';
import { HOOK_EVENT, SessionHooks } from '../hooks/sessionHooks.js';
import { Clock } from './clock.js';
import { compiledContracts } from './contract/compiledContracts.js';
import type { ValidatorStore } from './contract/schemaValidators.js';
import type { ContractSet } from './contract/contractSet.js';
import { ContractChecker, type StrictOption } from './contractChecker.js';
import { Dispatcher } from './dispatcher.js';
import { EventSamples } from './eventSamples.js';
import { FakeAgent } from './fakeAgent.js';
import { GatewayConnection, type TransportLink } from './gatewayConnection.js';
import { statefulHandlers } from './handlers/index.js';
import { InboundGate } from './inboundGate.js';
import { LifecycleEvents } from './lifecycleEvents.js';
import { LiveSessions } from './liveSessions.js';
import { OutboundFunnel } from './outboundFunnel.js';
import { OutboundShapes } from './outboundShapes.js';
import { ParamsAdmission } from './paramsAdmission.js';
import { ReplayEpoch } from './replayEpoch.js';
import { type ReplayLimits, ReplayRings } from './replayRings.js';
import { SchemaAnswers } from './schemaAnswers.js';
import { SchemaResponder } from './schemaResponder.js';
import { ServerRequests } from './serverRequests.js';
import { SessionEvents } from './sessionEvents.js';
import { SessionLifecycle } from './sessionLifecycle.js';
import { SessionStore } from './sessionStore.js';
import { SessionViews } from './sessionViews.js';
import { Timers } from './timers.js';

export interface CoreOptions {
  readonly contractPaths: readonly string[];
  readonly legacyMessages: boolean;
  readonly dataDir: string;
  readonly buildDelayMs: number;
  readonly orphanGraceMs: number;
  readonly maxResumeMessages: number;
  readonly seed: number;
  readonly replay: ReplayLimits;
  readonly strict: StrictOption | undefined;
  readonly log: (line: string) => void;
  readonly skin: Record<string, unknown>;
  readonly plugins: readonly PluginSpec[];
  readonly hookTimeoutMs: number;
  readonly serverRequestTimeoutMs: number;
  readonly validatorStore: ValidatorStore | undefined;
}

/** Close code sent to every socket when the gateway restarts (1012 = service restart). */
export const RESTART_CLOSE_CODE = 1012;

/** `desktop_contract` of `session.info`: the first Hermes document's info.version (a number when it is one). */
function desktopContractOf(contracts: ContractSet): number | string | null {
  const version = contracts.documents.find((document) => document.profile === 'hermes')?.version ?? '';
  return /^\d+$/.test(version) ? Number(version) : version || null;
}

/**
 * The transport-free reference gateway and its composition root: every collaborator is built here and handed
 * to the pieces that use it. Connections in, frames out through one funnel.
 */
export class GatewayCore {
  /** The "database": stored rows, kept across restarts. */
  readonly store: SessionStore;
  readonly live = new LiveSessions();
  readonly replay: ReplayRings;
  readonly funnel = new OutboundFunnel();
  readonly inbound = new InboundGate();
  readonly lifecycle: LifecycleEvents;
  /** The session lifecycle hooks: the plugins' hook bus and the `session.hook` observer stream. */
  readonly hooks: SessionHooks;
  readonly contracts: ContractSet;
  /** Server→client requests: the open ones, by session. */
  readonly serverRequests: ServerRequests;
  /** What faults are installed through. */
  readonly seams: FaultSeams;
  /** The loaded methods a stateful handler answers, sorted; every other loaded method gets the schema responder. */
  readonly statefulMethods: readonly string[];
  private readonly epoch = new ReplayEpoch();
  private readonly timers = new Timers();
  private readonly connections = new Set<GatewayConnection>();
  private readonly checker: ContractChecker;
  private readonly shapes: OutboundShapes;
  private readonly sessions: SessionLifecycle;
  private readonly dispatcher: Dispatcher;
  private nextConnection = 1;

  constructor(private readonly options: CoreOptions) {
    const { log } = options;
    const { contracts, validators } = compiledContracts(options.contractPaths, log, options.validatorStore);
    const clock = new Clock();
    this.contracts = contracts;
    this.store = new SessionStore(clock.now);
    this.replay = new ReplayRings(options.replay, this.funnel.texts);
    this.lifecycle = new LifecycleEvents(log);
    this.checker = new ContractChecker(contracts, validators, options.strict, log);
    this.shapes = new OutboundShapes(contracts);
    const events = new SessionEvents(this.replay, this.funnel, this.checker, this.shapes);
    const responder = new SchemaResponder(contracts, validators, options.seed);
    const serverRequests = new ServerRequests({
      contracts,
      funnel: this.funnel,
      events,
      timers: this.timers,
      shapes: this.shapes,
      checker: this.checker,
      responder,
      timeoutMs: options.serverRequestTimeoutMs,
    });
    this.serverRequests = serverRequests;
    const views = new SessionViews(this.store, desktopContractOf(contracts), (sessionId) => serverRequests.openFor(sessionId));
    this.hooks = new SessionHooks({
      funnel: this.funnel,
      checker: this.checker,
      store: this.store,
      clock,
      log,
      served: contracts.notifications.has(HOOK_EVENT),
      orphanGraceMs: options.orphanGraceMs,
      plugins: options.plugins,
      timeoutMs: options.hookTimeoutMs,
    });
    const samples = new EventSamples(contracts, responder, validators);
    const agent = new FakeAgent({ events, lifecycle: this.lifecycle, timers: this.timers, clock, store: this.store, serverRequests, samples });
    this.sessions = new SessionLifecycle({
      live: this.live,
      store: this.store,
      timers: this.timers,
      clock,
      lifecycle: this.lifecycle,
      events,
      views,
      agent,
      hooks: this.hooks,
      serverRequests,
      buildDelayMs: options.buildDelayMs,
      orphanGraceMs: options.orphanGraceMs,
    });
    const handlers = statefulHandlers({
      store: this.store,
      live: this.live,
      sessions: this.sessions,
      agent,
      hooks: this.hooks,
      events,
      views,
      timers: this.timers,
      clock,
      replay: this.replay,
      epoch: this.epoch,
      serverRequests,
      contracts,
      dataDir: options.dataDir,
      maxResumeMessages: options.maxResumeMessages,
    });
    this.statefulMethods = Object.keys(handlers)
      .filter((name) => contracts.methods.has(name))
      .sort();
    this.dispatcher = new Dispatcher({
      contracts,
      inbound: this.inbound,
      funnel: this.funnel,
      checker: this.checker,
      admission: new ParamsAdmission(contracts, validators, options.legacyMessages),
      schemaAnswers: new SchemaAnswers({ responder, validators, sessions: this.sessions, live: this.live }),
      shapes: this.shapes,
      serverRequests,
      handlers,
      legacyMessages: options.legacyMessages,
      log,
    });
    this.seams = {
      funnel: this.funnel,
      inbound: this.inbound,
      onHookFailure: (listener) => this.hooks.bus.onFailure(listener),
      gateEvents: (gate) => events.use(gate),
      gateAnswers: (gate) => serverRequests.useAnswerGate(gate),
      auth: new AuthRelaxations(),
      contracts,
      validators,
      legacyMessages: options.legacyMessages,
      log,
    };
  }

  get replayEpoch(): string {
    return this.epoch.value;
  }

  /** A new client connection. One that receives events gets `gateway.ready` as its first frame. */
  connect(link: TransportLink): GatewayConnection {
    const connection = new GatewayConnection(`c${this.nextConnection++}`, link, link.kind !== 'http');
    if (!connection.eventsEnabled) return connection;
    this.connections.add(connection);
    // Over stdio Hermes sends no heartbeat flag (entry.py): null, so a client starts no heartbeat there.
    const heartbeat = link.kind === 'stdio' ? null : true;
    const payload = this.shapes.event('gateway.ready', { skin: this.options.skin, change_events: true, heartbeat, replay_epoch: this.epoch.value });
    // The ready frame is built by the transport, not emitted by a session: checked only where it is declared.
    if (this.contracts.notifications.has('gateway.ready')) this.checker.checkEvent('gateway.ready', payload);
    this.funnel.send(connection, { kind: 'ready', frame: { jsonrpc: '2.0', method: 'event', params: { type: 'gateway.ready', payload } } });
    return connection;
  }

  receive(connection: GatewayConnection, text: string): Promise<void> {
    return this.dispatcher.receive(connection, text);
  }

  disconnect(connection: GatewayConnection, code: number, reason: string): void {
    if (!connection.open) return;
    connection.open = false;
    connection.closedWith = { code, reason };
    this.connections.delete(connection);
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
    this.epoch.renew();
    this.replay.reset();
  }

  close(): void {
    this.dropEverything('gateway shutdown');
    this.timers.cancelAll();
  }

  private dropEverything(reason: string): void {
    for (const connection of [...this.connections]) {
      connection.open = false;
      this.connections.delete(connection);
      connection.link.close(RESTART_CLOSE_CODE, reason);
    }
    this.sessions.shutdown();
    this.serverRequests.withdrawAll('shutdown');
  }
}
