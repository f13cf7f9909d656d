import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redactor } from '../client/redact.js';
import type { CodeProfile } from '../checks/codeProfile.js';
import type { Contract } from '../contracts/contractModel.js';
import { FindingLedger, type FrameFinding, type FrameSide } from './findings.js';
import { FrameStreamJudge } from './frameJudge.js';
import type { ConnectionInfo, RelayTap } from './relay.js';
import type { WireDialect } from '../../core/wireDialect.js';
import { ConnectionLog } from './connectionLog.js';

export interface ProxyWatchOptions {
  server: Contract;
  client?: Contract;
  profile: CodeProfile;
  /** How the gateway carries events (default: plain JSON-RPC notifications). */
  dialect?: WireDialect;
  /** Methods the gateway answers inline, without its contract. */
  inlineMethods?: readonly string[];
  /** Receives one line per new finding, and one per refused or unreachable upgrade. */
  live?: (line: string) => void;
  /** The upstream went away (an upstream close 1001/1006/1012, or unreachable): the CLI stops then. */
  upstreamGone?: (why: string) => void;
  now?: () => number;
  /** Frames longer than this are relayed, not judged (default 8 MiB). */
  maxJudgedChars?: number;
  /** Secrets known before any connection (e.g. a token the CLI was given). */
  secrets?: string[];
  /** Where the watch makes the folder its connections' logs spill to (default: the system's temporary folder). */
  logRoot?: string;
}

export interface ConnectionRecord {
  conn: string;
  /** Its transcript and the client's first frames (for the replay files). */
  log: ConnectionLog;
  closed?: { by: FrameSide; code: number; at: number };
}

const EXCERPT_CHARS = 160;
/** Upstream close codes that mean the gateway itself is going away, not that it ended one connection. */
const UPSTREAM_GONE_CODES = new Set([1001, 1006, 1012]);

const clock = (at: number): string => new Date(at).toISOString().slice(11, 23);

/**
 * Everything the proxy keeps about what it watched: the judge's verdicts folded into findings, live lines, and the
 * transcripts and client frames of the connections that had findings (those without are forgotten on close).
 */
export class ProxyWatch implements RelayTap {
  readonly judge: FrameStreamJudge;
  readonly ledger = new FindingLedger();
  readonly redactor: Redactor;
  readonly connections = new Map<string, ConnectionRecord>();
  readonly refusals: string[] = [];
  connectionsOpened = 0;
  framesRelayed = 0;
  binaryFrames = 0;
  private readonly withFindings = new Set<string>();
  private readonly now: () => number;
  /** The connections' log files (see ConnectionLog), made when a log first spills, removed by `dispose()`. */
  private logDir: string | undefined;
  private logs = 0;
  private logLossSaid = false;

  constructor(readonly options: ProxyWatchOptions) {
    this.judge = new FrameStreamJudge({ server: options.server, profile: options.profile, ...(options.dialect ? { dialect: options.dialect } : {}), ...(options.inlineMethods ? { inlineMethods: options.inlineMethods } : {}), ...(options.client ? { client: options.client } : {}), ...(options.maxJudgedChars ? { maxJudgedChars: options.maxJudgedChars } : {}) });
    this.redactor = new Redactor(options.secrets ?? []);
    this.now = options.now ?? Date.now;
  }

  get findingCount(): number {
    return this.ledger.size;
  }

  opened(conn: string, info: ConnectionInfo): void {
    this.redactor.add(info.secrets);
    this.connectionsOpened++;
    const log = new ConnectionLog(this.now(), () => {
      this.logDir ??= mkdtempSync(join(this.options.logRoot ?? tmpdir(), 'contract-gate-proxy-'));
      return join(this.logDir, `${++this.logs}.log`);
    });
    log.note(log.openedAt, `open ${this.redactor.redactUrl(info.requestUrl)}${info.protocol ? ` (subprotocol ${this.redactor.redact(info.protocol)})` : ''}`);
    this.connections.set(conn, { conn, log });
    this.judge.open(conn);
  }

  frame(conn: string, from: FrameSide, data: Buffer, isBinary: boolean): void {
    const record = this.connections.get(conn);
    if (!record) return;
    this.framesRelayed++;
    const direction = from === 'client' ? '>>' : '<<';
    if (isBinary) {
      this.binaryFrames++;
      record.log.note(this.now(), `${direction} binary frame of ${data.length} bytes (relayed, not judged)`);
      return;
    }
    const text = data.toString('utf8');
    const at = this.now();
    record.log.frame(direction, at, data, text);
    if (record.log.lostReason && !this.logLossSaid) {
      // Said once: every connection's log writes to the same folder, so one failing says what the others will do.
      this.logLossSaid = true;
      this.options.live?.(`${clock(at)} ${conn} its log stopped: ${record.log.lostReason}; its transcript and replay files end there`);
    }
    this.report(this.judge.frame(conn, from, text, at));
  }

  closed(conn: string, by: FrameSide, code: number, reason: string): void {
    const record = this.connections.get(conn);
    if (!record) return;
    const at = this.now();
    record.log.note(at, `closed by the ${by === 'client' ? 'client' : 'gateway'}: ${code}${reason ? ` ${this.redactor.redact(reason)}` : ''}`);
    record.closed = { by, code, at };
    this.report(this.judge.close(conn, by, code, at));
    if (!this.withFindings.has(conn)) {
      record.log.dispose();
      this.connections.delete(conn);
    }
    if (by === 'server' && UPSTREAM_GONE_CODES.has(code)) this.options.upstreamGone?.(`the gateway closed ${conn} with ${code}`);
  }

  /** Removes the connections' log files: once the report has been written from them. */
  dispose(): void {
    if (this.logDir) rmSync(this.logDir, { recursive: true, force: true });
    this.logDir = undefined;
  }

  refused(conn: string, why: string, unreachable: boolean): void {
    const line = `${clock(this.now())} ${conn} upgrade not relayed: ${this.redactor.redact(why)}`;
    this.refusals.push(line);
    this.options.live?.(line);
    if (unreachable) this.options.upstreamGone?.(why);
  }

  /** The one live line of a finding: time, connection, subject, check, offending path, redacted frame excerpt. */
  liveLine(finding: FrameFinding): string {
    const excerpt = this.redactor.redact(finding.frame).replace(/\s+/g, ' ');
    const cut = excerpt.length > EXCERPT_CHARS ? `${excerpt.slice(0, EXCERPT_CHARS - 1)}…` : excerpt;
    return `${clock(finding.at)} ${finding.conn} ${finding.subject} ${finding.check} ${finding.path} ${cut}`;
  }

  private report(findings: readonly FrameFinding[]): void {
    for (const finding of findings) {
      this.withFindings.add(finding.conn);
      if (this.ledger.add(finding)) this.options.live?.(this.liveLine(finding));
    }
  }
}
