import type { GatewayConnection } from '../gatewayConnection.js';

export interface HandlerContext {
  readonly method: string;
  /** The connection the request came in on (sessions created here are bound to it). */
  readonly connection: GatewayConnection;
  /** Runs `task` right after the reply has been sent (events of a new session must not precede its id). */
  afterReply(task: () => void): void;
}

/** Params arrive admitted: free of unknown keys and valid against the contract. */
export type Handler = (params: Record<string, unknown>, context: HandlerContext) => unknown;

export type HandlerTable = Record<string, Handler>;

export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
export const bool = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);
export const int = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) ? value : undefined);
