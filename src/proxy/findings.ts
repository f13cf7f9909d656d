import type { CheckId } from '../checks/checkCatalogue.js';
import type { RpcId } from '../../core/index.js';

/** Which side sent a frame: the watched client, or the gateway behind the proxy. */
export type FrameSide = 'client' | 'server';

/** What kind of frame a finding is about; a finding is reported once per subject, check and path. */
export type FrameKind = 'request' | 'answer' | 'event' | 'server-request' | 'server-request-answer';

/** The client's request a finding belongs to (what a replay re-sends). */
export interface ObservedRequest {
  id: RpcId;
  method: string;
  params: unknown;
  text: string;
  /** Milliseconds on the judge's clock. */
  at: number;
  /** A Request object as JSON-RPC 2.0 §4 defines one: jsonrpc "2.0", an id of a JSON-RPC type, params structured or absent. */
  wellFormed: boolean;
}

/** One broken rule seen on the wire, as data; the judge returns these, it never prints or writes. */
export interface FrameFinding {
  at: number;
  conn: string;
  /** Matrix row: a method, an event type, `(session events)`, a server request method or `(connection)`. */
  subject: string;
  check: CheckId;
  kind: FrameKind;
  /** The offending location inside the frame (`cwd_explicit`, `result.entries`, `seq`), or `(root)`. */
  path: string;
  message: string;
  /** The frame that broke the rule, unredacted (the watch redacts it before anything leaves the process). */
  frame: string;
  request?: ObservedRequest;
  /** The gateway's answer to `request`, when it sent one. */
  answer?: string;
  /** Set on a request that breaks the server contract: the skew summary names it. */
  skew?: { method: string; path: string };
}

export const findingKey = (finding: Pick<FrameFinding, 'subject' | 'check' | 'path'>): string => `${finding.subject}\u0000${finding.check}\u0000${finding.path}`;

/** A finding with how often it was seen; the first occurrence is kept whole. */
export interface FindingRecord {
  first: FrameFinding;
  occurrences: number;
  connections: Set<string>;
}

/** Folds repeated findings: the first of each subject × check × path is news, the rest are counted. */
export class FindingLedger {
  private readonly records = new Map<string, FindingRecord>();

  /** True when this is the first finding of its kind. */
  add(finding: FrameFinding): boolean {
    const key = findingKey(finding);
    const known = this.records.get(key);
    if (known) {
      known.occurrences++;
      known.connections.add(finding.conn);
      return false;
    }
    this.records.set(key, { first: finding, occurrences: 1, connections: new Set([finding.conn]) });
    return true;
  }

  get all(): FindingRecord[] {
    return [...this.records.values()];
  }

  get size(): number {
    return this.records.size;
  }
}
