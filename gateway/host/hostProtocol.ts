import type { GatewayOptions } from '../index.js';

/**
 * The messages between a process and the child that hosts its reference gateways (over the Node IPC channel).
 * Options travel as JSON: the ones that carry functions or objects (`log`, `strict`, `plugins`) are not hosted, and a
 * validator store is the host process's own (gateway/host/hostLoop.ts).
 */
export type HostedOptions = Omit<GatewayOptions, 'log' | 'strict' | 'plugins' | 'validatorStore'>;

export type HostCommand = { readonly op: 'start'; readonly options: HostedOptions } | { readonly op: 'restart' | 'close'; readonly handle: number };

export type HostRequest = HostCommand & { readonly id: number };

export interface HostedGatewayFacts {
  readonly handle: number;
  readonly url: string;
  readonly httpUrl: string;
}

export type HostReply = { readonly id: number; readonly ok: true; readonly value?: HostedGatewayFacts } | { readonly id: number; readonly ok: false; readonly error: string };
