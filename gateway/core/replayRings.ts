import type { SerialisedTexts } from './serialisedTexts.js';

export interface ReplayLimits {
  readonly maxEventsPerSession: number;
  readonly maxBytesPerSession: number;
  readonly maxBytesProcess: number;
  readonly maxSessions: number;
}

export const DEFAULT_REPLAY_LIMITS: ReplayLimits = {
  maxEventsPerSession: 512,
  maxBytesPerSession: 4 * 1024 * 1024,
  maxBytesProcess: 64 * 1024 * 1024,
  maxSessions: 64,
};

interface RetainedEvent {
  readonly seq: number;
  /** The event's params as sent; never changed after `record` (frames are rewritten as copies, never in place). */
  readonly params: Record<string, unknown>;
  /** `JSON.stringify(params)`, made once when the event was sent. */
  readonly json: string;
  readonly bytes: number;
}

interface SessionCursor {
  latestSeq: number;
  /** Highest seq no longer retained: a watermark below it has missed events. */
  evictedThrough: number;
}

/** One session's retained events (oldest first), their byte total and the session's cursor. */
interface Ring {
  readonly events: RetainedEvent[];
  bytes: number;
  readonly cursor: SessionCursor;
}

export interface ReplaySlice {
  readonly events: Record<string, unknown>[];
  readonly latest_seq: number;
  readonly truncated: boolean;
  readonly count: number;
}

export interface ReplayStats {
  readonly sessions: number;
  readonly events: number;
  readonly bytes: number;
  readonly max_per_session: number;
  readonly max_bytes_per_session: number;
  readonly max_bytes_process: number;
}

/**
 * Per-session event rings (spec §4). Seqs start at 1 per session and survive ring eviction, so a revisited
 * session stays monotonic within the epoch; evicted or never-retained frames raise `evictedThrough`.
 */
export class ReplayRings {
  /** Cursors outlive rings: they are a few numbers per session and keep seqs monotonic. */
  private readonly cursors = new Map<string, SessionCursor>();
  /** Insertion order is ring age (oldest first). */
  private readonly rings = new Map<string, Ring>();
  private totalBytes = 0;
  private totalEvents = 0;

  /** `texts` learns the JSON text of every replayed list of events, made of the texts the events were sent as. */
  constructor(
    readonly limits: ReplayLimits,
    private readonly texts?: SerialisedTexts,
  ) {}

  /** Stamps the next seq on `params` and retains a copy; returns the seq and the params' JSON text. */
  record(sessionId: string, params: Record<string, unknown>): { seq: number; json: string } {
    let cursor = this.cursors.get(sessionId);
    if (!cursor) this.cursors.set(sessionId, (cursor = { latestSeq: 0, evictedThrough: 0 }));
    const seq = ++cursor.latestSeq;
    params['seq'] = seq;
    const json = JSON.stringify(params);
    const bytes = Buffer.byteLength(json, 'utf8');
    if (bytes > this.limits.maxBytesPerSession || bytes > this.limits.maxBytesProcess || this.limits.maxEventsPerSession < 1 || this.limits.maxSessions < 1) {
      cursor.evictedThrough = seq;
      return { seq, json };
    }
    let ring = this.rings.get(sessionId);
    if (!ring) {
      ring = { events: [], bytes: 0, cursor };
      this.rings.set(sessionId, ring);
      while (this.rings.size > this.limits.maxSessions) this.dropOldestRing();
    }
    ring.events.push({ seq, params, json, bytes });
    ring.bytes += bytes;
    this.totalBytes += bytes;
    this.totalEvents += 1;
    while (ring.events.length > this.limits.maxEventsPerSession || ring.bytes > this.limits.maxBytesPerSession) this.evictOne(ring);
    while (this.totalBytes > this.limits.maxBytesProcess) {
      const oldest = this.oldestNonEmptyRing();
      if (!oldest) break;
      this.evictOne(oldest);
    }
    return { seq, json };
  }

  since(sessionId: string, lastSeen: number): ReplaySlice {
    const cursor = this.cursors.get(sessionId) ?? { latestSeq: 0, evictedThrough: 0 };
    const retained = this.rings.get(sessionId)?.events ?? [];
    // Seqs ascend within a ring: the missed events are a tail of it.
    let first = retained.length;
    while (first > 0 && (retained[first - 1] as RetainedEvent).seq > lastSeen) first -= 1;
    const events: Record<string, unknown>[] = [];
    let text = '[';
    for (let i = first; i < retained.length; i++) {
      const event = retained[i] as RetainedEvent;
      events.push(event.params);
      text += (i === first ? '' : ',') + event.json;
    }
    // Neither the list nor its events change after this: a result carrying the list is written around its text
    // (linked by `+`, not copied by a join: see serialisedTexts.ts).
    this.texts?.remember(events, text + ']');
    const truncated = lastSeen < cursor.evictedThrough || lastSeen > cursor.latestSeq;
    return { events, latest_seq: cursor.latestSeq, truncated, count: events.length };
  }

  latestSeq(sessionId: string): number {
    return this.cursors.get(sessionId)?.latestSeq ?? 0;
  }

  stats(): ReplayStats {
    return {
      sessions: this.rings.size,
      events: this.totalEvents,
      bytes: this.totalBytes,
      max_per_session: this.limits.maxEventsPerSession,
      max_bytes_per_session: this.limits.maxBytesPerSession,
      max_bytes_process: this.limits.maxBytesProcess,
    };
  }

  /** A restart forgets everything: a new epoch makes every old watermark meaningless. */
  reset(): void {
    this.cursors.clear();
    this.rings.clear();
    this.totalBytes = 0;
    this.totalEvents = 0;
  }

  private oldestNonEmptyRing(): Ring | undefined {
    for (const ring of this.rings.values()) if (ring.events.length > 0) return ring;
    return undefined;
  }

  private evictOne(ring: Ring): void {
    const event = ring.events.shift();
    if (!event) return;
    ring.bytes -= event.bytes;
    this.totalBytes -= event.bytes;
    this.totalEvents -= 1;
    ring.cursor.evictedThrough = Math.max(ring.cursor.evictedThrough, event.seq);
  }

  private dropOldestRing(): void {
    const oldest = this.rings.entries().next();
    if (oldest.done) return;
    const [id, ring] = oldest.value;
    const last = ring.events.at(-1);
    if (last) ring.cursor.evictedThrough = Math.max(ring.cursor.evictedThrough, last.seq);
    this.totalBytes -= ring.bytes;
    this.totalEvents -= ring.events.length;
    this.rings.delete(id);
  }
}
