import {
  type HandlerOptions,
  HOOK_MODES,
  type HookHandler,
  type HookMode,
  type HookName,
  type HookPayload,
  type HookRegistry,
  MODIFYING_MODES,
  WRITABLE_FIELDS,
} from './hookTypes.js';

export const DEFAULT_HOOK_PRIORITY = 50;
export const DEFAULT_HOOK_TIMEOUT_MS = 5_000;

interface Registered {
  readonly hook: HookName;
  readonly handler: HookHandler;
  readonly mode: HookMode;
  readonly priority: number;
  readonly name: string;
  readonly order: number;
}

type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false };

/** A handler that threw, rejected or exceeded the time limit, with the payload it was given. */
export interface HandlerFailure {
  readonly hook: HookName;
  readonly handler: string;
  readonly payload: HookPayload;
  readonly reason: string;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A written value of the right type: a non-empty model id, an options object or null. */
function acceptable(field: string, value: unknown): boolean {
  if (field === 'model_id') return typeof value === 'string' && value !== '';
  if (field === 'model_options') return value === null || isPlainObject(value);
  return true;
}

/**
 * Dispatches one hook to its handlers (cpex's executor as Mellea configures it): sorted by priority, run in mode
 * groups, each handler on a frozen copy under a time limit. A handler that throws, rejects or exceeds the limit is
 * logged and treated as "continue"; the others still run and the caller never sees the failure.
 */
export class HookBus implements HookRegistry {
  private readonly handlers: Registered[] = [];
  private readonly background = new Set<Promise<void>>();
  private readonly failureListeners = new Set<(failure: HandlerFailure) => void>();
  private registrations = 0;

  constructor(
    private readonly timeoutMs: number,
    private readonly log: (line: string) => void,
  ) {}

  on<H extends HookName>(hook: H, handler: HookHandler<H>, options: HandlerOptions = {}): () => void {
    const entry: Registered = {
      hook,
      handler: handler as unknown as HookHandler,
      mode: options.mode ?? 'sequential',
      priority: options.priority ?? DEFAULT_HOOK_PRIORITY,
      name: options.name ?? `#${this.registrations + 1}`,
      order: this.registrations++,
    };
    this.handlers.push(entry);
    return () => {
      const index = this.handlers.indexOf(entry);
      if (index >= 0) this.handlers.splice(index, 1);
    };
  }

  /** Tells `listener` about every handler failure (after it is logged); returns the unsubscription. */
  onFailure(listener: (failure: HandlerFailure) => void): () => void {
    this.failureListeners.add(listener);
    return () => this.failureListeners.delete(listener);
  }

  has(hook: HookName): boolean {
    return this.handlers.some((entry) => entry.hook === hook);
  }

  /** Runs every handler of the payload's hook; resolves with the effective payload once the awaited groups are done. */
  async fire<P extends HookPayload>(payload: P): Promise<P> {
    const hook = payload.hook;
    const chain = this.handlers.filter((entry) => entry.hook === hook).sort((a, b) => a.priority - b.priority || a.order - b.order);
    let current = payload;
    for (const mode of HOOK_MODES) {
      const group = chain.filter((entry) => entry.mode === mode);
      if (mode === 'concurrent') {
        const seen = current;
        const outcomes = await Promise.all(group.map((entry) => this.run(entry, seen)));
        outcomes.forEach((outcome, i) => this.discard(group[i], outcome));
        continue;
      }
      for (const entry of group) {
        if (mode === 'fire_and_forget') {
          this.detach(entry, current);
          continue;
        }
        const outcome = await this.run(entry, current);
        if (MODIFYING_MODES.has(mode)) current = this.merge(entry, current, outcome);
        else this.discard(entry, outcome);
      }
    }
    return current;
  }

  /** Resolves when every fire-and-forget handler started so far has finished. */
  async drain(): Promise<void> {
    while (this.background.size > 0) await Promise.all([...this.background]);
  }

  private detach(entry: Registered, payload: unknown): void {
    const task = this.run(entry, payload).then((outcome) => this.discard(entry, outcome));
    this.background.add(task);
    void task.finally(() => this.background.delete(task));
  }

  private run(entry: Registered, payload: unknown): Promise<Outcome> {
    const copy = deepFreeze(structuredClone(payload)) as HookPayload;
    const label = `hook ${entry.hook}: ${entry.mode} handler ${entry.name}`;
    return new Promise((resolve) => {
      let settled = false;
      const finish = (outcome: Outcome): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const fail = (reason: string): void => {
        if (settled) return;
        this.log(`${label} ${reason}; skipped`);
        finish({ ok: false });
        this.reportFailure({ hook: entry.hook, handler: entry.name, payload: copy, reason });
      };
      const timer = setTimeout(() => fail(`exceeded ${this.timeoutMs} ms`), this.timeoutMs);
      timer.unref();
      try {
        Promise.resolve(entry.handler(copy)).then(
          (value) => finish({ ok: true, value }),
          (error: unknown) => fail(`failed: ${(error as Error)?.message ?? String(error)}`),
        );
      } catch (error) {
        fail(`failed: ${(error as Error)?.message ?? String(error)}`);
      }
    });
  }

  private reportFailure(failure: HandlerFailure): void {
    for (const listener of this.failureListeners) {
      try {
        listener(failure);
      } catch (error) {
        this.log(`hook failure listener failed: ${(error as Error)?.message ?? String(error)}`);
      }
    }
  }

  /** Applies the writable fields a sequential or transform handler changed; every other change is dropped. */
  private merge<P extends HookPayload>(entry: Registered, current: P, outcome: Outcome): P {
    if (!outcome.ok || outcome.value === undefined || outcome.value === null) return current;
    if (!isPlainObject(outcome.value)) {
      this.log(`hook ${entry.hook}: handler ${entry.name} returned a ${typeof outcome.value}, not a payload; ignored`);
      return current;
    }
    const writable = WRITABLE_FIELDS[entry.hook] as readonly string[];
    const next: Record<string, unknown> = { ...current };
    const dropped: string[] = [];
    for (const [field, value] of Object.entries(outcome.value)) {
      if (sameJson(value, next[field])) continue;
      if (writable.includes(field) && acceptable(field, value)) next[field] = structuredClone(value);
      else dropped.push(field);
    }
    if (dropped.length > 0) this.log(`hook ${entry.hook}: handler ${entry.name} changed ${dropped.join(', ')}, which it may not; dropped`);
    return next as P;
  }

  private discard(entry: Registered | undefined, outcome: Outcome): void {
    if (entry && outcome.ok && outcome.value !== undefined && outcome.value !== null) {
      this.log(`hook ${entry.hook}: changes returned by ${entry.mode} handler ${entry.name} discarded`);
    }
  }
}
