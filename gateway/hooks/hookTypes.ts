/** The session lifecycle hooks of the session-hooks extension (payloads after Mellea's `mellea.plugins.hooks.session`). */
export const HOOK_NAMES = ['session_pre_init', 'session_post_init', 'session_reset', 'session_cleanup'] as const;

export type HookName = (typeof HOOK_NAMES)[number];

export function isHookName(value: unknown): value is HookName {
  return typeof value === 'string' && (HOOK_NAMES as readonly string[]).includes(value);
}

/** The session context as a hook sees it: `turns` counts the user turns in it, `last_role` is its last message's role. */
export interface ContextSnapshot {
  readonly type: string;
  readonly turns: number;
  readonly last_role: string | null;
}

/** The error that ended a session: its class name and message. */
export interface HookException {
  readonly type: string;
  readonly message: string;
}

interface HookBase<H extends HookName> {
  readonly hook: H;
  readonly session_id: string;
  /** RFC 3339, UTC. */
  readonly timestamp: string;
}

export interface SessionPreInitPayload extends HookBase<'session_pre_init'> {
  readonly backend_name: string;
  readonly model_id: string;
  readonly model_options: Readonly<Record<string, unknown>> | null;
  readonly context_type: string;
}

export interface SessionPostInitPayload extends HookBase<'session_post_init'> {
  readonly model_id: string;
  readonly context: ContextSnapshot;
}

export interface SessionResetPayload extends HookBase<'session_reset'> {
  readonly previous_context: ContextSnapshot;
}

export interface SessionCleanupPayload extends HookBase<'session_cleanup'> {
  readonly context: ContextSnapshot;
  readonly interaction_count: number;
  readonly exception: HookException | null;
}

export interface HookPayloads {
  session_pre_init: SessionPreInitPayload;
  session_post_init: SessionPostInitPayload;
  session_reset: SessionResetPayload;
  session_cleanup: SessionCleanupPayload;
}

export type HookPayload = HookPayloads[HookName];

/**
 * How a handler runs, in this order of groups: `sequential` and `transform` one after the other, each seeing the
 * previous one's changes; `audit` one after the other, changes discarded; `concurrent` all at once, changes
 * discarded; `fire_and_forget` started last on a snapshot and not awaited.
 */
export const HOOK_MODES = ['sequential', 'transform', 'audit', 'concurrent', 'fire_and_forget'] as const;

export type HookMode = (typeof HOOK_MODES)[number];

export function isHookMode(value: unknown): value is HookMode {
  return typeof value === 'string' && (HOOK_MODES as readonly string[]).includes(value);
}

/** Only these modes may change a payload, and only in the writable fields of its hook. */
export const MODIFYING_MODES: ReadonlySet<HookMode> = new Set(['sequential', 'transform']);

/** Mellea's payload policy: `session_pre_init` may change the model and its options; the other hooks are observe-only. */
export const WRITABLE_FIELDS: { readonly [H in HookName]: ReadonlyArray<keyof HookPayloads[H]> } = {
  session_pre_init: ['model_id', 'model_options'],
  session_post_init: [],
  session_reset: [],
  session_cleanup: [],
};

/**
 * A handler gets a frozen copy of the payload. It returns nothing to continue unchanged, or an object whose
 * writable fields replace the payload's (a changed copy or only the changed fields).
 */
export type HookHandler<H extends HookName = HookName> = (
  payload: HookPayloads[H],
) => void | Partial<HookPayloads[H]> | Promise<void | Partial<HookPayloads[H]>>;

export interface HandlerOptions {
  /** Lower runs first; default 50; equal priorities keep registration order. */
  readonly priority?: number;
  /** Default `sequential`. */
  readonly mode?: HookMode;
  /** Shown in log lines; default the plugin's name. */
  readonly name?: string;
}

/** What a plugin registers its handlers with. */
export interface HookRegistry {
  on<H extends HookName>(hook: H, handler: HookHandler<H>, options?: HandlerOptions): () => void;
}

/** A gateway plugin: installed once when the gateway starts. */
export interface GatewayPlugin {
  readonly name: string;
  install(hooks: HookRegistry): void;
}
