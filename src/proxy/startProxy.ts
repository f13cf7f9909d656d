import { NO_BINDINGS, type BindingRules } from '../binding/bindingRules.js';
import type { Profile } from '../profile/profile.js';
import type { Contract } from '../contracts/contractModel.js';
import { writeProxyReport, type ProxyReport } from './proxyReport.js';
import { ProxyWatch } from './proxyWatch.js';
import { startRelay, type RunningRelay } from './relay.js';

export interface ProxyOptions {
  /** ws(s)://…/api/ws of the gateway the client is meant to reach. */
  upstream: string;
  server: Contract;
  client?: Contract;
  /** The gateway's family: its codes, and how its events and inline methods look on the wire. */
  profile: Profile;
  host?: string;
  port?: number;
  maxPayload?: number;
  maxJudgedChars?: number;
  /** Binding rules used to make the replay files re-create live ids on another target. */
  bindings?: BindingRules;
  live?: (line: string) => void;
  upstreamGone?: (why: string) => void;
  now?: () => number;
}

export interface RunningProxy {
  /** ws://host:port/<upstream path>: point the client here. */
  readonly url: string;
  readonly port: number;
  readonly watch: ProxyWatch;
  readonly relay: RunningRelay;
  /** Closes every connection pair and writes the report folder. */
  stop(reportDir: string, reason: string): Promise<ProxyReport>;
}

/** Starts the relay with a watch on it: every frame is passed on first, then judged. */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const startedAt = Date.now();
  const { profile } = options;
  const watch = new ProxyWatch({
    server: options.server,
    profile: profile.codes,
    dialect: profile.wire.dialect,
    inlineMethods: profile.wire.inlineMethods,
    ...(options.client ? { client: options.client } : {}),
    ...(options.live ? { live: options.live } : {}),
    ...(options.upstreamGone ? { upstreamGone: options.upstreamGone } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.maxJudgedChars ? { maxJudgedChars: options.maxJudgedChars } : {}),
  });
  const relay = await startRelay({
    upstream: options.upstream,
    tap: watch,
    ...(options.host ? { host: options.host } : {}),
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.maxPayload ? { maxPayload: options.maxPayload } : {}),
  });
  let stopped: Promise<ProxyReport> | undefined;
  return {
    url: relay.url,
    port: relay.port,
    watch,
    relay,
    stop(reportDir, reason) {
      stopped ??= (async () => {
        await relay.close();
        try {
          return writeProxyReport({
            dir: reportDir,
            watch,
            upstream: watch.redactor.redactUrl(options.upstream),
            server: options.server,
            ...(options.client ? { client: options.client } : {}),
            bindings: options.bindings ?? NO_BINDINGS,
            startedAt,
            stoppedAt: Date.now(),
            reason,
          });
        } finally {
          watch.dispose();
        }
      })();
      return stopped;
    },
  };
}
