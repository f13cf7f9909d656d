import { openConnection } from './openConnection.js';
import { RpcClient } from './rpcClient.js';
import type { RpcClientOptions } from './rpcClientOptions.js';
import { targetKind } from './targetUrl.js';

export type ConnectTargetOptions = Omit<RpcClientOptions, 'url'> & {
  /** `ws(s)://…` (WebSocket), `http(s)://…` (one POST per request, no events) or `stdio:<command line>`. */
  target: string;
};

/** Connects to a target over the transport its scheme names; every transport gives the same client. */
export async function connectTarget(options: ConnectTargetOptions): Promise<RpcClient> {
  const opened = await openConnection({ ...options, kind: targetKind(options.target) });
  return RpcClient.over(opened.protocol, opened.ready);
}
