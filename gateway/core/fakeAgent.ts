import type { Clock } from './clock.js';
import type { LifecycleEvents } from './lifecycleEvents.js';
import type { ActiveTurn, LiveSession } from './liveSessions.js';
import type { SessionEvents } from './sessionEvents.js';
import type { SessionStore } from './sessionStore.js';
import { ensureStoredRow } from './storedRows.js';
import type { Timers } from './timers.js';

export const DEFAULT_MODEL = 'echo';
const DELTA_COUNT = 3;

/** Splits `text` into `parts` chunks that concatenate back to it (front-loaded when uneven). */
export function splitChunks(text: string, parts: number): string[] {
  const size = Math.ceil(text.length / parts);
  return Array.from({ length: parts }, (_, i) => text.slice(i * size, (i + 1) * size));
}

function slowMs(text: string): number {
  const match = /^\/slow\s+(\d+)/.exec(text);
  return match ? Math.min(Number(match[1]), 600_000) : 0;
}

function failure(text: string): string | undefined {
  if (text !== '/fail' && !text.startsWith('/fail ')) return undefined;
  return text.slice('/fail'.length).trim() || 'turn failed';
}

/**
 * The deterministic agent of `session-hooks.md`: model `echo` streams `message.start`, three `message.delta`
 * chunks of `echo: <text>` and `message.complete`; `/fail <x>` fails the turn; `/slow <ms>` spreads the stream
 * over that many milliseconds; a model id starting with `fail-build` cannot be built.
 */
export interface FakeAgentDeps {
  readonly events: SessionEvents;
  readonly lifecycle: LifecycleEvents;
  readonly timers: Timers;
  readonly clock: Clock;
  readonly store: SessionStore;
}

export class FakeAgent {
  constructor(private readonly deps: FakeAgentDeps) {}

  buildFailure(model: string): string | undefined {
    return model.startsWith('fail-build') ? `agent init failed: model ${model} could not be built` : undefined;
  }

  /**
   * Makes `text` the session's running turn (the session must be idle). The stream starts when the returned
   * function is called, so that a handler can reply first.
   */
  start(session: LiveSession, text: string, displayKind: string | undefined): () => void {
    const turn: ActiveTurn = {
      user: text,
      displayKind,
      startedAt: this.deps.clock.nowSeconds(),
      assistant: '',
      corrections: [],
      timers: new Set(),
      interrupt: () => this.interrupt(session, turn, true),
    };
    session.turn = turn;
    session.lastActive = turn.startedAt;
    const steps = this.steps(session, turn);
    const gap = steps.length > 1 ? slowMs(text) / (steps.length - 1) : 0;
    const run = (index: number): void => {
      if (session.turn !== turn) return;
      steps[index]?.();
      if (index + 1 < steps.length && session.turn === turn) this.schedule(turn, gap, () => run(index + 1));
    };
    return () => run(0);
  }

  /** Ends the running turn with `status: "interrupted"`; `drainQueue: false` leaves queued prompts waiting. */
  interrupt(session: LiveSession, turn: ActiveTurn, drainQueue: boolean): void {
    if (session.turn !== turn) return;
    this.stop(session, turn);
    this.deps.events.emit(session, 'message.complete', { text: turn.assistant, status: 'interrupted' });
    this.deps.lifecycle.emit({ type: 'turn.failed', sessionId: session.id, message: 'interrupted', status: 'interrupted' });
    if (drainQueue) this.drain(session);
  }

  /** Stops everything silently (the session is closing). */
  cancel(session: LiveSession): void {
    if (session.turn) this.stop(session, session.turn);
    session.queue = [];
  }

  private steps(session: LiveSession, turn: ActiveTurn): Array<() => void> {
    const start = () => this.deps.events.emit(session, 'message.start');
    const failed = failure(turn.user);
    if (failed !== undefined) {
      return [
        start,
        () => this.deps.events.emit(session, 'error', { message: failed }),
        () => {
          this.stop(session, turn);
          this.deps.events.emit(session, 'message.complete', { text: '', status: 'error' });
          this.deps.lifecycle.emit({ type: 'turn.failed', sessionId: session.id, message: failed, status: 'error' });
          this.drain(session);
        },
      ];
    }
    const full = `echo: ${turn.user}`;
    const deltas = splitChunks(full, DELTA_COUNT).map((chunk) => () => {
      turn.assistant += chunk;
      this.deps.events.emit(session, 'message.delta', { text: chunk });
    });
    const complete = () => {
      this.stop(session, turn);
      const row = ensureStoredRow(this.deps.store, session);
      const timestamp = this.deps.clock.nowSeconds();
      const user = this.deps.store.message({ role: 'user', text: turn.user, timestamp: turn.startedAt, ...(turn.displayKind ? { display_kind: turn.displayKind } : {}) });
      this.deps.store.append(row, user, this.deps.store.message({ role: 'assistant', text: full, timestamp }));
      session.interactionCount += 1;
      session.lastActive = timestamp;
      this.deps.events.emit(session, 'message.complete', { text: full, status: 'complete' });
      this.deps.lifecycle.emit({ type: 'turn.committed', sessionId: session.id, storedKey: session.key, interactionCount: session.interactionCount });
      this.drain(session);
    };
    return [start, ...deltas, complete];
  }

  private schedule(turn: ActiveTurn, ms: number, task: () => void): void {
    const handle = this.deps.timers.after(ms, () => {
      turn.timers.delete(handle);
      task();
    });
    turn.timers.add(handle);
  }

  private stop(session: LiveSession, turn: ActiveTurn): void {
    for (const handle of turn.timers) this.deps.timers.cancel(handle);
    turn.timers.clear();
    if (session.turn === turn) session.turn = undefined;
  }

  /** Starts the next queued prompt when the session is idle. */
  drain(session: LiveSession): void {
    if (session.closed || session.turn) return;
    const queued = session.queue.shift();
    if (queued) this.start(session, queued.text, queued.displayKind)();
  }
}
