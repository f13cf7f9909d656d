import type { BindingRules } from '../../../src/binding/bindingRules.js';
import { NO_BINDINGS } from '../../../src/binding/bindingRules.js';
import { resolveProfile } from '../../../profiles/index.js';
import type { Contract } from '../../../src/contracts/index.js';
import { ProxyWatch, startRelay, writeProxyReport, type FrameSide, type ProxyReport, type RunningRelay } from '../../../src/proxy/index.js';

/** Every frame as it crossed the proxy, raw (before any judging). */
export interface CrossedFrame {
  conn: string;
  from: FrameSide;
  text: string;
  isBinary: boolean;
}

/** The proxy's watch, recording what it was handed so that tests can compare it with what each side saw. */
export class RecordingWatch extends ProxyWatch {
  readonly crossed: CrossedFrame[] = [];
  readonly live: string[] = [];

  override frame(conn: string, from: FrameSide, data: Buffer, isBinary: boolean): void {
    this.crossed.push({ conn, from, text: data.toString('utf8'), isBinary });
    super.frame(conn, from, data, isBinary);
  }
}

export interface WatchedProxy {
  url: string;
  watch: RecordingWatch;
  relay: RunningRelay;
  /** Closes the relay and writes the report; the watch's log files are removed afterwards. */
  stop(reportDir: string): Promise<ProxyReport>;
  /** Closes the relay without a report, and removes the watch's log files. */
  close(): Promise<void>;
}

export async function startWatchedProxy(options: { upstream: string; server: Contract; client?: Contract; bindings?: BindingRules; maxPayload?: number; maxJudgedChars?: number; logRoot?: string }): Promise<WatchedProxy> {
  const watch: RecordingWatch = new RecordingWatch({
    server: options.server,
    profile: resolveProfile(undefined, options.server).codes,
    dialect: resolveProfile(undefined, options.server).wire.dialect,
    inlineMethods: resolveProfile(undefined, options.server).wire.inlineMethods,
    ...(options.client ? { client: options.client } : {}),
    ...(options.maxJudgedChars ? { maxJudgedChars: options.maxJudgedChars } : {}),
    ...(options.logRoot ? { logRoot: options.logRoot } : {}),
    live: (line) => watch.live.push(line),
  });
  const relay = await startRelay({ upstream: options.upstream, tap: watch, ...(options.maxPayload ? { maxPayload: options.maxPayload } : {}) });
  const startedAt = Date.now();
  return {
    url: relay.url,
    watch,
    relay,
    async close() {
      await relay.close();
      watch.dispose();
    },
    async stop(reportDir) {
      await relay.close();
      try {
        return writeProxyReport({
          dir: reportDir,
          watch,
          upstream: options.upstream,
          server: options.server,
          ...(options.client ? { client: options.client } : {}),
          bindings: options.bindings ?? NO_BINDINGS,
          startedAt,
          stoppedAt: Date.now(),
          reason: 'test',
        });
      } finally {
        watch.dispose();
      }
    },
  };
}
