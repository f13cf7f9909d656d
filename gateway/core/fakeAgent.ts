import type { Clock } from './clock.js';
import type { EventSamples } from './eventSamples.js';
import type { LifecycleEvents } from './lifecycleEvents.js';
import type { ActiveTurn, LiveSession, QueuedTurn } from './liveSessions.js';
import type { ServerRequestOutcome, ServerRequests } from './serverRequests.js';
import type { SessionEvents } from './sessionEvents.js';
import type { SessionStore } from './sessionStore.js';
import { ensureStoredRow } from './storedRows.js';
import type { Timers } from './timers.js';
import { scriptOf, slowMs } from './turnScripts.js';

export const DEFAULT_MODEL = 'echo';
const DELTA_COUNT = 3;

/** Splits `text` into `parts` chunks that concatenate back to it (front-loaded when uneven). */
export function splitChunks(text: string, parts: number): string[] {
  const size = Math.ceil(text.length / parts);
  return Array.from({ length: parts }, (_, i) => text.slice(i * size, (i + 1) * size));
}

/** One step of a turn; a step that returns a promise (a server request) holds the next one until it settles. */
type Step = () => void | Promise<void>;

/** The assistant reply of a `/request` turn: where the client's answer is echoed (see the README). */
export function requestReply(method: string, outcome: ServerRequestOutcome): string {
  if (outcome.kind === 'answered') return `${method} answered: ${JSON.stringify(outcome.result)}`;
  if (outcome.kind === 'refused') return `${method} not answered: the client answered with an error`;
  return `${method} not answered: ${outcome.reason}`;
}

export interface FakeAgentDeps {
  readonly events: SessionEvents;
  readonly lifecycle: LifecycleEvents;
  readonly timers: Timers;
  readonly clock: Clock;
  readonly store: SessionStore;
  readonly serverRequests: ServerRequests;
  readonly samples: EventSamples;
}

/**
 * The deterministic agent of `session-hooks.md`: model `echo` streams `message.start`, a tool event pair (where
 * the contract declares tool events), three `message.delta` chunks of `echo: <text>` and `message.complete`;
 * `/fail <x>` fails the turn; `/slow <ms>` spreads the stream over that many milliseconds; `/request <method>` asks
 * the client a server request and replies with its answer; `/emit <type>` sends one event of that type; a model id
 * starting with `fail-build` cannot be built.
 */
export class FakeAgent {
  private toolCalls = 0;

  constructor(private readonly deps: FakeAgentDeps) {}

  buildFailure(model: string): string | undefined {
    return model.startsWith('fail-build') ? `agent init failed: model ${model} could not be built` : undefined;
  }

  /**
   * Makes the prompt the session's running turn (the session must be idle). The stream starts when the returned
   * function is called, so that a handler can reply first.
   */
  start(session: LiveSession, prompt: QueuedTurn): () => void {
    const turn: ActiveTurn = {
      user: prompt.text,
      displayKind: prompt.displayKind,
      inputIds: [prompt.inputId],
      startedAt: this.deps.clock.nowSeconds(),
      assistant: '',
      corrections: [],
      timers: new Set(),
      interrupt: () => this.interrupt(session, turn, true),
    };
    session.turn = turn;
    session.lastActive = turn.startedAt;
    const steps = this.steps(session, turn);
    const gap = steps.length > 1 ? slowMs(prompt.text) / (steps.length - 1) : 0;
    const run = (index: number): void => {
      if (session.turn !== turn) return;
      const next = (): void => {
        if (index + 1 >= steps.length || session.turn !== turn) return;
        // An instant turn runs whole in the tick it starts in (its frames leave in one socket write); `/slow`
        // spreads the steps over timers, where a client can reach the running turn.
        if (gap > 0) this.schedule(turn, gap, () => run(index + 1));
        else run(index + 1);
      };
      const pending = steps[index]?.();
      if (pending) void pending.then(next);
      else next();
    };
    return () => run(0);
  }

  /** Ends the running turn with `status: "interrupted"`; `drainQueue: false` leaves queued prompts waiting. */
  interrupt(session: LiveSession, turn: ActiveTurn, drainQueue: boolean): void {
    if (session.turn !== turn) return;
    this.deps.serverRequests.withdrawSession(session.id, 'interrupted');
    this.stop(session, turn);
    this.deps.events.emit(session, 'message.complete', { text: turn.assistant, status: 'interrupted', inputs: this.inputsOf(turn) });
    this.deps.lifecycle.emit({ type: 'turn.failed', sessionId: session.id, message: 'interrupted', status: 'interrupted' });
    if (drainQueue) this.drain(session);
  }

  /** Stops everything silently (the session is closing; its open requests are withdrawn by the lifecycle). */
  cancel(session: LiveSession): void {
    if (session.turn) this.stop(session, session.turn);
    session.queue = [];
  }

  /** Starts the next queued prompt when the session is idle. */
  drain(session: LiveSession): void {
    if (session.closed || session.turn) return;
    const queued = session.queue.shift();
    if (queued) this.start(session, queued)();
  }

  private steps(session: LiveSession, turn: ActiveTurn): Step[] {
    const emit = (type: string, payload?: unknown): void => void this.deps.events.emit(session, type, payload);
    const visible = turn.displayKind === 'hidden' ? null : { role: 'user', text: turn.user };
    // input / inputs reach the wire only where the served document declares them (SHARED_SESSION_WIRE).
    const start = () => emit('message.start', { input: visible, inputs: this.inputsOf(turn), inputs_complete: true });
    const script = scriptOf(turn.user, { serverRequest: (method) => this.deps.serverRequests.declared(method) !== undefined, event: (type) => this.deps.samples.declares(type) });
    if (script.kind === 'fail') {
      return [
        start,
        () => emit('error', { message: script.message }),
        () => {
          this.stop(session, turn);
          emit('message.complete', { text: '', status: 'error', inputs: this.inputsOf(turn) });
          this.deps.lifecycle.emit({ type: 'turn.failed', sessionId: session.id, message: script.message, status: 'error' });
          this.drain(session);
        },
      ];
    }
    if (script.kind === 'emit') {
      return [start, () => emit(script.type, this.deps.samples.payloadFor(script.type, session)), () => this.commit(session, turn, `emitted ${script.type}`)];
    }
    let reply = script.kind === 'echo' ? script.reply : '';
    const ask: Step[] =
      script.kind === 'request'
        ? [
            async () => {
              reply = requestReply(script.method, await this.deps.serverRequests.ask(session, script.method));
            },
          ]
        : [];
    const deltas = Array.from({ length: DELTA_COUNT }, (_, i) => () => {
      const chunk = splitChunks(reply, DELTA_COUNT)[i] ?? '';
      turn.assistant += chunk;
      emit('message.delta', { text: chunk });
    });
    return [start, ...this.toolPair(session, turn), ...ask, ...deltas, () => this.commit(session, turn, reply)];
  }

  /** `tool.start` and `tool.complete` of one fake `echo` tool call, when the contract declares both. */
  private toolPair(session: LiveSession, turn: ActiveTurn): Step[] {
    if (!this.deps.samples.declares('tool.start') || !this.deps.samples.declares('tool.complete')) return [];
    const toolId = `tool-${++this.toolCalls}`;
    const args = { text: turn.user };
    return [
      () => void this.deps.events.emit(session, 'tool.start', { tool_id: toolId, name: 'echo', context: turn.user.slice(0, 80), args }),
      () => void this.deps.events.emit(session, 'tool.complete', { tool_id: toolId, name: 'echo', args, duration_s: 0, result: turn.user, summary: 'echoed the prompt', result_text: turn.user }),
    ];
  }

  /** Ends the turn as complete: commits a user row and an assistant row with `reply`. */
  private commit(session: LiveSession, turn: ActiveTurn, reply: string): void {
    this.stop(session, turn);
    const row = ensureStoredRow(this.deps.store, session);
    const timestamp = this.deps.clock.nowSeconds();
    const user = this.deps.store.message({ role: 'user', text: turn.user, timestamp: turn.startedAt, ...(turn.displayKind ? { display_kind: turn.displayKind } : {}) });
    this.deps.store.append(row, user, this.deps.store.message({ role: 'assistant', text: reply, timestamp }));
    session.interactionCount += 1;
    session.lastActive = timestamp;
    this.deps.events.emit(session, 'message.complete', { text: reply, status: 'complete', inputs: this.inputsOf(turn) });
    this.deps.lifecycle.emit({ type: 'turn.committed', sessionId: session.id, storedKey: session.key, interactionCount: session.interactionCount });
    this.drain(session);
  }

  private inputsOf(turn: ActiveTurn): Array<{ id: string }> {
    return turn.inputIds.map((id) => ({ id }));
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
}
