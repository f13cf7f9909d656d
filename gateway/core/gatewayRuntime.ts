import { randomBytes } from 'node:crypto';
import type { ContractSet } from './contract/contractSet.js';
import type { SchemaValidators } from './contract/schemaValidators.js';
import { ContractChecker, type StrictOption } from './contractChecker.js';
import type { GatewayConnection } from './gatewayConnection.js';
import { InboundGate } from './inboundGate.js';
import { LifecycleEvents } from './lifecycleEvents.js';
import { LiveSessions } from './liveSessions.js';
import { OutboundFunnel } from './outboundFunnel.js';
import { ReplayRings, type ReplayLimits } from './replayRings.js';
import { SessionEvents } from './sessionEvents.js';
import { SessionStore } from './sessionStore.js';
import { Timers } from './timers.js';

export interface RuntimeSettings {
  readonly legacyMessages: boolean;
  readonly dataDir: string;
  readonly buildDelayMs: number;
  readonly orphanGraceMs: number;
  readonly maxResumeMessages: number;
  readonly seed: number;
  readonly replay: ReplayLimits;
  readonly strict: StrictOption | undefined;
  readonly log: (line: string) => void;
}

/** The shared state of one reference gateway, independent of any transport. */
export class GatewayRuntime {
  readonly store: SessionStore;
  readonly live = new LiveSessions();
  readonly replay: ReplayRings;
  readonly funnel = new OutboundFunnel();
  readonly inbound = new InboundGate();
  readonly lifecycle: LifecycleEvents;
  readonly checker: ContractChecker;
  readonly events: SessionEvents;
  readonly timers = new Timers();
  readonly connections = new Set<GatewayConnection>();
  /** `desktop_contract` of `session.info`: the first Hermes document's info.version. */
  readonly desktopContract: number | string | null;
  replayEpoch = randomBytes(16).toString('hex');

  constructor(
    readonly settings: RuntimeSettings,
    readonly contracts: ContractSet,
    readonly validators: SchemaValidators,
    readonly now: () => number = Date.now,
  ) {
    this.store = new SessionStore(now);
    this.replay = new ReplayRings(settings.replay);
    this.lifecycle = new LifecycleEvents(settings.log);
    this.checker = new ContractChecker(contracts, validators, settings.strict, settings.log);
    this.events = new SessionEvents(this.replay, this.funnel, this.checker);
    const hermes = contracts.documents.find((document) => document.profile === 'hermes');
    const version = hermes?.version ?? '';
    this.desktopContract = /^\d+$/.test(version) ? Number(version) : version || null;
  }

  nowSeconds(): number {
    return this.now() / 1000;
  }

  log(line: string): void {
    this.settings.log(line);
  }

  /** A restart: same stored rows, new epoch, empty replay rings. Live sessions are the caller's business. */
  newEpoch(): void {
    this.replayEpoch = randomBytes(16).toString('hex');
    this.replay.reset();
  }
}
