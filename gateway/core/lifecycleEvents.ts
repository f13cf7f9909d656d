/** Why a live session ended; `session_cleanup` maps it to the exception it reports. */
export type SessionCloseReason =
  | { readonly kind: 'client_close' }
  | { readonly kind: 'close_on_disconnect'; readonly code: number; readonly reason: string }
  | { readonly kind: 'orphan_reap' }
  | { readonly kind: 'build_failed'; readonly message: string }
  | { readonly kind: 'shutdown' };

export type LifecycleEvent =
  | { readonly type: 'session.created'; readonly sessionId: string; readonly storedKey: string; readonly model: string; readonly via: 'create' | 'resume' | 'branch' }
  | { readonly type: 'agent.built'; readonly sessionId: string; readonly model: string }
  | { readonly type: 'agent.build_failed'; readonly sessionId: string; readonly model: string; readonly message: string }
  | { readonly type: 'turn.committed'; readonly sessionId: string; readonly storedKey: string; readonly interactionCount: number }
  | { readonly type: 'turn.failed'; readonly sessionId: string; readonly message: string; readonly status: 'error' | 'interrupted' }
  | { readonly type: 'session.closed'; readonly sessionId: string; readonly storedKey: string; readonly reason: SessionCloseReason; readonly interactionCount: number };

export type LifecycleEventType = LifecycleEvent['type'];
type Listener<T extends LifecycleEventType> = (event: Extract<LifecycleEvent, { type: T }>) => void;

/** A small typed, synchronous emitter. A listener that throws is logged and skipped; it never stops the others. */
export class LifecycleEvents {
  private readonly listeners = new Map<LifecycleEventType, Set<(event: LifecycleEvent) => void>>();

  constructor(private readonly log: (line: string) => void) {}

  on<T extends LifecycleEventType>(type: T, listener: Listener<T>): () => void {
    const set = this.listeners.get(type) ?? new Set();
    const wrapped = listener as (event: LifecycleEvent) => void;
    set.add(wrapped);
    this.listeners.set(type, set);
    return () => set.delete(wrapped);
  }

  emit(event: LifecycleEvent): void {
    for (const listener of this.listeners.get(event.type) ?? []) {
      try {
        listener(event);
      } catch (error) {
        this.log(`lifecycle listener for ${event.type} failed: ${(error as Error).message}`);
      }
    }
  }
}
