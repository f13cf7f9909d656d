import type { Exchange } from '../../core/index.js';
import { authFor, type ConnectionAuth } from './connectionAuth.js';
import { HttpTransport } from './httpTransport.js';
import { Redactor } from './redact.js';
import type { ProtocolOptions } from './rpcClientOptions.js';
import { type CallOptions, RpcProtocol } from './rpcProtocol.js';
import { withQuery } from './targetUrl.js';
import { Transcript } from './transcript.js';

export interface HttpRpcClientOptions extends Omit<ProtocolOptions, 'answerServerRequest' | 'unhandledServerRequests' | 'serverRequestTimeoutMs'> {
  url: string;
  token?: string;
  /** How the POSTs authenticate; default: the token kind (`Authorization: Bearer`) when `token` is set. */
  auth?: ConnectionAuth;
  transcript?: Transcript;
}

/** JSON-RPC over HTTP POST (one request per POST, no events), for targets that only speak HTTP. */
export class HttpRpcClient {
  readonly name: string;
  readonly transcript: Transcript;
  readonly redactor: Redactor;
  readonly protocol: RpcProtocol;

  constructor(options: HttpRpcClientOptions) {
    this.name = options.name ?? 'h1';
    this.redactor = new Redactor([options.token]);
    this.transcript = options.transcript ?? new Transcript(this.redactor);
    const label = this.redactor.redactUrl(withQuery(options.url));
    const credentials = authFor(options)
      .present({ transport: 'http', target: options.url })
      .then((presented) => {
        this.redactor.add(presented.secrets);
        this.transcript.addSecrets(presented.secrets);
        return presented;
      });
    this.protocol = new RpcProtocol(new HttpTransport({ url: options.url, label, credentials }), this.transcript, this.redactor, { ...options, name: this.name });
  }

  call(method: string, params?: unknown, options: CallOptions = {}): Promise<Exchange> {
    return this.protocol.call(method, params, options);
  }

  /** Aborts the POSTs still in flight; later calls fail as closed. */
  async close(): Promise<void> {
    await this.protocol.close();
  }
}
