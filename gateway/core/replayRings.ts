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
  readonly json: string;
  readonly bytes: number;
}

interface SessionCursor {
  latestSeq: number;
  /** Highest seq no longer retained: a watermark below it has missed events. */
  evictedThrough: number;
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
  private readonly rings = new Map<string, RetainedEvent[]>();
  private readonly ringBytes = new Map<string, number>();
  private totalBytes = 0;
  private totalEvents = 0;

  constructor(readonly limits: ReplayLimits) {}

  /** Stamps the next seq on `params` and retains a copy; returns the seq and the params' JSON text. */
  record(sessionId: string, params: Record<string, unknown>): { seq: number; json: string } {
    const cursor = this.cursors.get(sessionId) ?? { latestSeq: 0, evictedThrough: 0 };
    this.cursors.set(sessionId, cursor);
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
      ring = [];
      this.rings.set(sessionId, ring);
      this.ringBytes.set(sessionId, 0);
      while (this.rings.size > this.limits.maxSessions) this.dropOldestRing();
    }
    ring.push({ seq, json, bytes });
    this.ringBytes.set(sessionId, (this.ringBytes.get(sessionId) ?? 0) + bytes);
    this.totalBytes += bytes;
    this.totalEvents += 1;
    while (ring.length > this.limits.maxEventsPerSession || (this.ringBytes.get(sessionId) ?? 0) > this.limits.maxBytesPerSession) {
      this.evictOne(sessionId);
    }
    while (this.totalBytes > this.limits.maxBytesProcess) {
      const oldest = [...this.rings.keys()].find((id) => (this.rings.get(id)?.length ?? 0) > 0);
      if (oldest === undefined) break;
      this.evictOne(oldest);
    }
    return { seq, json };
  }

  since(sessionId: string, lastSeen: number): ReplaySlice {
    const cursor = this.cursors.get(sessionId) ?? { latestSeq: 0, evictedThrough: 0 };
    const events = (this.rings.get(sessionId) ?? [])
      .filter((event) => event.seq > lastSeen)
      .map((event) => JSON.parse(event.json) as Record<string, unknown>);
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
    this.ringBytes.clear();
    this.totalBytes = 0;
    this.totalEvents = 0;
  }

  private evictOne(sessionId: string): void {
    const ring = this.rings.get(sessionId);
    const event = ring?.shift();
    if (!event) return;
    this.ringBytes.set(sessionId, (this.ringBytes.get(sessionId) ?? 0) - event.bytes);
    this.totalBytes -= event.bytes;
    this.totalEvents -= 1;
    const cursor = this.cursors.get(sessionId);
    if (cursor) cursor.evictedThrough = Math.max(cursor.evictedThrough, event.seq);
  }

  private dropOldestRing(): void {
    const oldest = this.rings.keys().next();
    if (oldest.done) return;
    const id = oldest.value;
    while ((this.rings.get(id)?.length ?? 0) > 0) this.evictOne(id);
    this.rings.delete(id);
    this.ringBytes.delete(id);
  }
}
