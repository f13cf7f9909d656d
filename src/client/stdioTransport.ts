import type { WireEvent } from '../../core/index.js';
import { StdioChild, type StdioChildListener, type StdioSpawnOptions } from './stdioChild.js';
import { type StdioPool, stdioPool } from './stdioPool.js';
import type { Transport } from './transport.js';
import { TransportEvents } from './transportEvents.js';

export interface StdioTransportOptions extends StdioSpawnOptions {
  /** After stdin ends, how long the child may take to exit before SIGTERM (and as long again before SIGKILL). */
  closeGraceMs: number;
  /**
   * Take a child an earlier connection of the same command line left running, and leave this one's running for
   * the next connection when it closes with nothing outstanding (default: a process of its own, ended on close).
   */
  reuse?: boolean;
  /** Where children wait between connections (default: the one this process shares). */
  pool?: StdioPool;
}

export const DEFAULT_CLOSE_GRACE_MS = 2_000;

/** What makes two connections interchangeable: the same command line, working folder and environment. */
function poolKey(options: StdioTransportOptions): string {
  return JSON.stringify([options.command, options.args, options.cwd ?? '', Object.entries(options.env ?? {}).sort(([a], [b]) => a.localeCompare(b))]);
}

/**
 * Newline-delimited JSON-RPC with a child process, both ways, as a terminal client speaks to the gateway it spawns:
 * frames on stdin and stdout, stderr lines as transcript notes; the child exiting is the connection closing.
 * With `reuse`, a connection may continue a child an earlier one started (`resumed`), and may leave its child
 * running for the next one instead of ending it (`keepForReuse`).
 */
export class StdioTransport extends TransportEvents implements Transport {
  readonly kind = 'stdio';
  readonly label: string;
  readonly selectedProtocol = undefined;
  /** Resolves once the child is running; rejects with GATEWAY_UNREACHABLE when it cannot be started. */
  readonly opened: Promise<void>;
  /** Set when this connection continues a child an earlier connection started: that child's first event. */
  readonly resumed: { ready: WireEvent | undefined; pid: number | undefined } | undefined;
  private readonly child: StdioChild;
  private readonly key: string;
  private readonly pool: StdioPool;
  private ready: WireEvent | undefined;
  private released = false;
  private readonly listener: StdioChildListener = {
    frame: (text) => this.emitFrame({ text }),
    note: (text) => this.emitNote(text),
    close: (info) => this.emitClose(info),
  };

  constructor(private readonly options: StdioTransportOptions) {
    super();
    this.label = options.label;
    this.key = poolKey(options);
    this.pool = options.pool ?? stdioPool;
    const parked = options.reuse ? this.pool.take(this.key) : undefined;
    this.child = parked?.child ?? new StdioChild(options);
    if (parked) {
      this.resumed = { ready: parked.ready, pid: parked.child.pid };
      this.ready = parked.ready;
    }
    this.opened = this.child.opened;
    this.child.attach(this.listener);
  }

  get isOpen(): boolean {
    return !this.released && this.child.isRunning && this.closedWith === undefined;
  }

  /** The process id of the child, while it runs. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The dialect's first event, as the child sent it: handed to the connection that continues the child. */
  rememberReady(ready: WireEvent | undefined): void {
    this.ready = ready;
  }

  send(text: string): void {
    if (this.isOpen) this.child.send(text);
  }

  /**
   * Ends this connection and leaves the child running for the next connection of the same command line. False
   * (and nothing done) when reuse is off, the child is no longer fit to serve, or enough children already wait.
   */
  keepForReuse(): boolean {
    if (!this.options.reuse || !this.isOpen || this.child.disturbed !== undefined) return false;
    if (!this.pool.park(this.key, { child: this.child, ready: this.ready }, this.options.closeGraceMs)) return false;
    this.child.detach();
    this.released = true;
    this.emitClose({ code: 0, reason: 'kept running', description: `the process (pid ${this.child.pid ?? '?'}) was kept running for the next connection` });
    return true;
  }

  async close(): Promise<void> {
    if (this.closedWith) return;
    await this.child.close(this.options.closeGraceMs);
  }

  terminate(): void {
    if (this.closedWith) return;
    this.child.kill();
  }
}
