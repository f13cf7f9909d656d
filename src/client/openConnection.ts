import { type WireEvent, HarnessError } from '../../core/index.js';
import { authFor, type ConnectionCredentials } from './connectionAuth.js';
import { splitCommandLine } from './commandLine.js';
import { HttpTransport } from './httpTransport.js';
import { Redactor } from './redact.js';
import { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_MAX_FRAME_BYTES, DEFAULT_READY_TIMEOUT_MS, type RpcClientOptions } from './rpcClientOptions.js';
import { RpcProtocol } from './rpcProtocol.js';
import { DEFAULT_CLOSE_GRACE_MS, StdioTransport } from './stdioTransport.js';
import { stdioCommandLine, type TargetKind, withQuery } from './targetUrl.js';
import { Transcript } from './transcript.js';
import type { Transport, TransportClose } from './transport.js';
import { WebSocketTransport } from './wsTransport.js';

export interface OpenedConnection {
  protocol: RpcProtocol;
  /** The dialect's first event, when the target sent one first. */
  ready: WireEvent | undefined;
}

/** A transport as it is being opened: HTTP has nothing to wait for. */
type OpeningTransport = Transport & {
  readonly opened?: Promise<void>;
  readonly closedWith: TransportClose | undefined;
  /** Set when the transport continues a target an earlier connection started: the first event it sent then. */
  readonly resumed?: { ready: WireEvent | undefined; pid: number | undefined };
  /** Keeps the first event for a later connection that continues the same target. */
  rememberReady?(ready: WireEvent | undefined): void;
};

export type ConnectionOptions = Omit<RpcClientOptions, 'url'> & { target: string; kind: TargetKind };

/** Per-connection secrets are redacted from then on, in this connection's messages and in the transcript. */
function learnSecrets(redactor: Redactor, transcript: Transcript, credentials: ConnectionCredentials): void {
  redactor.add(credentials.secrets);
  transcript.addSecrets(credentials.secrets);
}

function refusalHint(code: number, kind: string): string {
  if (code === 4401 && kind === 'token') return '; the token was refused: check --token-env (a gated dashboard refuses the legacy token: use --auth ticket)';
  if (code === 4401) return `; the ${kind} credential was refused`;
  if (code === 4403) return '; the origin or the request was refused';
  return '';
}

function createTransport(options: ConnectionOptions, credentials: ConnectionCredentials, redactor: Redactor): OpeningTransport {
  const maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  if (options.kind === 'stdio') {
    const commandLine = stdioCommandLine(options.target);
    const [command, ...args] = splitCommandLine(commandLine);
    return new StdioTransport({
      command: command as string,
      args,
      label: redactor.redact(`stdio:${commandLine}`),
      maxFrameBytes,
      closeGraceMs: options.stdio?.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS,
      reuse: options.stdio?.reuse ?? false,
      ...(options.stdio?.cwd !== undefined ? { cwd: options.stdio.cwd } : {}),
      env: { ...options.stdio?.env, ...credentials.env },
    });
  }
  const url = withQuery(options.target, credentials.query);
  const label = redactor.redactUrl(url);
  if (options.kind === 'http') return new HttpTransport({ url: options.target, label, credentials: Promise.resolve(credentials) });
  return new WebSocketTransport({
    url,
    label,
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    maxFrameBytes,
    redact: (text) => redactor.redact(text),
    ...(options.origin ? { origin: options.origin } : {}),
    ...(credentials.subprotocols?.length ? { subprotocols: credentials.subprotocols } : {}),
    ...(credentials.headers ? { headers: credentials.headers } : {}),
  });
}

/**
 * Opens one connection: presents its credentials, starts the transport, lets the auth kind veto what was
 * opened, and waits for the dialect's first event (WebSocket and stdio). A target that closes right away is no
 * connection: that is GATEWAY_UNREACHABLE with the reason, never a client that fails every call.
 */
export async function openConnection(options: ConnectionOptions): Promise<OpenedConnection> {
  const redactor = new Redactor([options.token, ...(options.secrets ?? [])]);
  const auth = authFor(options);
  const credentials = await auth.present({ transport: options.kind, target: options.target });
  const transcript = options.transcript ?? new Transcript(redactor);
  learnSecrets(redactor, transcript, credentials);
  const transport = createTransport(options, credentials, redactor);
  const protocol = new RpcProtocol(transport, transcript, redactor, options);
  if (options.kind === 'http') return { protocol, ready: undefined };
  const shown = transport.label;
  transcript.record('--', protocol.name, `connect ${shown}`);
  const { resumed } = transport;
  if (resumed) {
    // The target already sent its first event, to the connection that started it: that event stands for this one too.
    transcript.record('--', protocol.name, `continues the process an earlier connection started (pid ${resumed.pid ?? '?'})${resumed.ready ? `; its first event was ${resumed.ready.type}` : ''}`);
    return { protocol, ready: resumed.ready };
  }
  await transport.opened;
  const refusal = auth.refuse?.({ transport: options.kind, selectedProtocol: transport.selectedProtocol });
  if (refusal !== undefined) {
    transport.terminate();
    throw new HarnessError('GATEWAY_UNREACHABLE', `${shown} was refused by the ${auth.kind} auth: ${redactor.redact(refusal)}`);
  }
  let ready: WireEvent | undefined;
  const readyEvent = protocol.dialect.readyEvent;
  const readyTimeoutMs = options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  if (readyEvent !== undefined && readyTimeoutMs > 0) {
    // A gateway that refuses the token accepts the upgrade and then closes (4401): that is not a connection.
    ready = await Promise.race([protocol.events.waitFor({ type: readyEvent }, readyTimeoutMs).catch(() => undefined), protocol.closed.then(() => undefined)]);
  }
  transport.rememberReady?.(ready);
  const early = protocol.closeState;
  const ended = transport.closedWith;
  if (early && ended?.description) {
    throw new HarnessError('GATEWAY_UNREACHABLE', `${shown} ended right after it started (${ended.description})${ended.detail ? `; ${redactor.redact(ended.detail)}` : ''}`);
  }
  if (early) {
    throw new HarnessError(
      'GATEWAY_UNREACHABLE',
      `${shown} closed the connection right after the handshake (code ${early.code}${early.reason ? ` "${redactor.redact(early.reason)}"` : ''})${refusalHint(early.code, auth.kind)}`,
    );
  }
  return { protocol, ready };
}
