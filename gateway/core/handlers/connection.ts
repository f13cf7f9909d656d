import type { ContractSet } from '../contract/contractSet.js';
import type { ServerRequests } from '../serverRequests.js';
import { bool, type HandlerTable, str } from './handlerTypes.js';

export interface ConnectionDeps {
  readonly contracts: ContractSet;
  readonly serverRequests: ServerRequests;
}

/** Connection-level methods of the full document: liveness, capabilities and answering a request by RPC. */
export function connectionHandlers({ contracts, serverRequests }: ConnectionDeps): HandlerTable {
  return {
    ping: () => ({ pong: true }),

    // Every connection is asked server requests whether or not it advertised them (see the README).
    'client.capabilities': (params) => ({
      server_requests: bool(params['server_requests']) === true ? [...contracts.serverRequests.keys()] : [],
      declines_not_shown: false,
    }),

    'request.answer': (params) => {
      const result = params['result'];
      const answer = typeof result === 'object' && result !== null && !Array.isArray(result) ? (result as Record<string, unknown>) : {};
      return { status: serverRequests.answer(str(params['id']) ?? '', answer) };
    },
  };
}
