import type { RecordedEvent } from '../../../src/client/eventLog.js';
import { isJsonObject, type WireEvent, type JsonValue } from '../../../core/index.js';

/** The part of a connection the replaying client needs (an RpcClient has it). */
export interface ReplaySource {
  readonly events: { readonly recorded: readonly RecordedEvent[]; onEvent(listener: (event: RecordedEvent) => void): () => void };
  readonly ready: WireEvent | undefined;
  request<T = JsonValue>(method: string, params?: unknown, options?: { timeoutMs?: number }): Promise<T>;
}

export interface ReplaySettlement {
  sessionId: string;
  /** `replayed`: the result was applied; `epoch-changed`: discarded, watermarks reset; `failed`: the call failed (swallowed); `abandoned`: the socket was replaced meanwhile. */
  status: 'replayed' | 'epoch-changed' | 'failed' | 'abandoned';
  /** The raw `session.events.since` result, for judging. */
  result?: unknown;
  error?: string;
  /** Replayed elements delivered (seq above the watermark). */
  delivered: number;
  /** Frames parked during the replay. */
  parked: number;
  /** Replayed or parked frames dropped because their seq was not above the watermark. */
  duplicatesDropped: number;
  truncated: boolean;
}

/** The synthetic event delivered when a replay says events were lost (newer clients: `session.replay_gap`). */
export const REPLAY_GAP_EVENT = 'session.replay_gap';

export const REPLAY_TIMEOUT_MS = 10_000;

const seqOf = (event: WireEvent): number | undefined => (typeof event.seq === 'number' && Number.isInteger(event.seq) ? event.seq : undefined);

/**
 * The Hermes desktop client's reconnect replay (spec §4, `JsonRpcGatewayClient`): it records the highest seq per
 * session from live events; after a reopen it parks live seq'd frames of those sessions until that session's
 * `session.events.since` settles; replayed and parked frames are delivered only when their seq is above the
 * watermark, so nothing is delivered twice and nothing in between is skipped. A new `replay_epoch` (ready frame or
 * replay result) makes every watermark meaningless.
 */
export class ReplayingClient {
  /** Everything the application saw, in delivery order. */
  readonly delivered: WireEvent[] = [];
  private readonly watermarks = new Map<string, number>();
  private readonly parkedFrames = new Map<string, WireEvent[]>();
  private knownEpoch: string | undefined;
  private generation = 0;
  private detach: (() => void) | undefined;

  get epoch(): string | undefined {
    return this.knownEpoch;
  }

  watermark(sessionId: string): number | undefined {
    return this.watermarks.get(sessionId);
  }

  sessions(): string[] {
    return [...this.watermarks.keys()];
  }

  isParked(sessionId: string): boolean {
    return this.parkedFrames.has(sessionId);
  }

  /** One live frame from the current socket. */
  receive(event: WireEvent): void {
    const sessionId = event.session_id;
    const parked = sessionId ? this.parkedFrames.get(sessionId) : undefined;
    if (parked && seqOf(event) !== undefined) parked.push(event);
    else if (sessionId && seqOf(event) !== undefined) this.dispatchIfNewer(event);
    else this.delivered.push(event);
  }

  /** Delivers a seq'd frame only when it is above its session's watermark; returns whether it was delivered. */
  dispatchIfNewer(event: WireEvent): boolean {
    const sessionId = event.session_id;
    const seq = seqOf(event);
    if (!sessionId || seq === undefined) return false;
    if (seq <= (this.watermarks.get(sessionId) ?? 0)) return false;
    this.watermarks.set(sessionId, seq);
    this.delivered.push(event);
    return true;
  }

  /** Adopts an epoch; a change from a known one clears every watermark. Returns whether watermarks were cleared. */
  adoptEpoch(epoch: string | undefined): boolean {
    if (epoch === undefined) return false;
    const changed = this.knownEpoch !== undefined && this.knownEpoch !== epoch;
    this.knownEpoch = epoch;
    if (changed) this.watermarks.clear();
    return changed;
  }

  park(sessionId: string): void {
    if (!this.parkedFrames.has(sessionId)) this.parkedFrames.set(sessionId, []);
  }

  /** Applies a replay result (or its failure, `undefined`) and releases the session's parked frames. */
  settle(sessionId: string, result: unknown, error?: string): ReplaySettlement {
    const parked = this.parkedFrames.get(sessionId) ?? [];
    this.parkedFrames.delete(sessionId);
    const settlement: ReplaySettlement = { sessionId, status: 'replayed', result, delivered: 0, parked: parked.length, duplicatesDropped: 0, truncated: false };
    if (error !== undefined || !isJsonObject(result)) {
      settlement.status = 'failed';
      settlement.error = error ?? 'session.events.since answered something that is not an object';
    } else {
      const epoch = typeof result['epoch'] === 'string' ? result['epoch'] : undefined;
      if (epoch !== undefined && this.knownEpoch !== undefined && epoch !== this.knownEpoch) {
        settlement.status = 'epoch-changed';
        this.adoptEpoch(epoch);
      } else {
        this.adoptEpoch(epoch);
        settlement.truncated = result['truncated'] === true;
        if (settlement.truncated) this.delivered.push({ type: REPLAY_GAP_EVENT, session_id: sessionId });
        const elements = Array.isArray(result['events']) ? result['events'] : [];
        // Elements without a type (a whole envelope, say) are not events of this session: ignored.
        for (const element of elements) {
          if (!isJsonObject(element) || typeof element['type'] !== 'string') continue;
          const event = element as WireEvent;
          if (event.session_id !== sessionId) continue;
          if (this.dispatchIfNewer(event)) settlement.delivered++;
          else settlement.duplicatesDropped++;
        }
      }
    }
    for (const event of parked) if (!this.dispatchIfNewer(event)) settlement.duplicatesDropped++;
    return settlement;
  }

  /**
   * Starts listening to a (re)opened socket: adopts its ready epoch, parks every watermarked session and feeds
   * the frames the socket already received. Returns the sessions that now need a replay.
   */
  attach(source: ReplaySource): string[] {
    this.detach?.();
    this.generation++;
    this.parkedFrames.clear();
    const payload = source.ready?.payload;
    this.adoptEpoch(isJsonObject(payload) && typeof payload['replay_epoch'] === 'string' ? payload['replay_epoch'] : undefined);
    const pending = this.sessions();
    for (const sessionId of pending) this.park(sessionId);
    for (const recorded of source.events.recorded) if (recorded.params.type !== 'gateway.ready') this.receive(recorded.params);
    this.detach = source.events.onEvent((recorded) => this.receive(recorded.params));
    return pending;
  }

  /** Fetches the events a session missed since its watermark and settles them (errors are swallowed, as in the desktop). */
  async replay(source: ReplaySource, sessionId: string, timeoutMs = REPLAY_TIMEOUT_MS): Promise<ReplaySettlement> {
    const generation = this.generation;
    const lastSeen = this.watermarks.get(sessionId) ?? 0;
    let result: unknown;
    let error: string | undefined;
    try {
      result = await source.request('session.events.since', { session_id: sessionId, last_seen: lastSeen }, { timeoutMs });
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
    }
    if (generation !== this.generation) {
      return { sessionId, status: 'abandoned', result, delivered: 0, parked: 0, duplicatesDropped: 0, truncated: false };
    }
    return this.settle(sessionId, result, error);
  }

  /** Stops listening (the socket is gone for good). */
  close(): void {
    this.detach?.();
    this.detach = undefined;
    this.generation++;
  }
}
