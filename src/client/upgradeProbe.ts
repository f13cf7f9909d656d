import WebSocket from 'ws';
import { Redactor } from './redact.js';
import { withQuery } from './targetUrl.js';

/** One deliberate upgrade of the auth-boundary checks: exactly these credentials, nothing added. */
export interface UpgradeAttempt {
  readonly url: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly subprotocols?: readonly string[];
  readonly origin?: string;
  /** Sent as soon as the upgrade succeeds: a request whose answer would show that the connection was served. */
  readonly sendOnOpen?: string;
  /** How long an opened connection is watched for a close (default 1 500 ms). */
  readonly settleMs?: number;
  readonly connectTimeoutMs?: number;
  /** Redacted from every text of the outcome. */
  readonly secrets: readonly string[];
}

/** What happened to the upgrade, as the client saw it. */
export type UpgradeOutcome =
  /** The HTTP upgrade was refused (status ≥ 400) or never happened. */
  | { readonly kind: 'handshake-refused'; readonly status: number | undefined; readonly detail: string }
  /** The server completed the upgrade (101) but selected a subprotocol that was not offered, or none of the offered ones. */
  | { readonly kind: 'protocol-mismatch'; readonly detail: string }
  /** Upgraded, then closed by the server within the settle time. */
  | { readonly kind: 'closed'; readonly code: number; readonly reason: string; readonly frames: readonly string[]; readonly selectedProtocol: string }
  /** Upgraded and still open after the settle time (the probe then closed it). */
  | { readonly kind: 'open'; readonly frames: readonly string[]; readonly selectedProtocol: string };

const DEFAULT_SETTLE_MS = 1_500;

/** Opens one WebSocket with exactly the attempt's credentials and reports how the server treated it. */
export function probeUpgrade(attempt: UpgradeAttempt): Promise<UpgradeOutcome> {
  const redactor = new Redactor(attempt.secrets);
  const url = withQuery(attempt.url, attempt.query);
  return new Promise<UpgradeOutcome>((resolve) => {
    const frames: string[] = [];
    let settled = false;
    const finish = (outcome: UpgradeOutcome): void => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const socket = new WebSocket(url, attempt.subprotocols ? [...attempt.subprotocols] : [], {
      handshakeTimeout: attempt.connectTimeoutMs ?? 5_000,
      ...(attempt.origin ? { origin: attempt.origin } : {}),
    });
    let timer: NodeJS.Timeout | undefined;
    socket.on('unexpected-response', (_request, response) => {
      finish({ kind: 'handshake-refused', status: response.statusCode, detail: `HTTP ${response.statusCode ?? '?'} ${redactor.redact(response.statusMessage ?? '')}`.trim() });
      socket.terminate();
    });
    socket.on('error', (error) => {
      const message = redactor.redact(error.message);
      if (/subprotocol/i.test(error.message)) finish({ kind: 'protocol-mismatch', detail: message });
      else finish({ kind: 'handshake-refused', status: undefined, detail: message });
    });
    socket.on('open', () => {
      if (attempt.sendOnOpen !== undefined) socket.send(attempt.sendOnOpen);
      timer = setTimeout(() => {
        finish({ kind: 'open', frames: frames.map((f) => redactor.redact(f)), selectedProtocol: redactor.redact(socket.protocol) });
        socket.close(1000);
      }, attempt.settleMs ?? DEFAULT_SETTLE_MS);
    });
    socket.on('message', (data) => frames.push(data.toString()));
    socket.on('close', (code, reason) => {
      clearTimeout(timer);
      finish({ kind: 'closed', code, reason: redactor.redact(reason.toString()), frames: frames.map((f) => redactor.redact(f)), selectedProtocol: redactor.redact(socket.protocol) });
    });
  });
}
