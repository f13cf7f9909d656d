/** What a transport gives the core: a way to send one text frame and to close. */
export interface TransportLink {
  readonly kind: 'ws' | 'http' | 'memory' | 'stdio';
  /** The Origin header of the upgrade or request, when one was sent. */
  readonly origin?: string;
  send(text: string): void;
  close(code: number, reason: string): void;
}

/** One client connection as the core sees it. Events reach it only when `eventsEnabled` (not over HTTP). */
export class GatewayConnection {
  open = true;
  /** The close code and reason once the transport went away. */
  closedWith: { readonly code: number; readonly reason: string } | undefined;

  constructor(
    readonly id: string,
    readonly link: TransportLink,
    readonly eventsEnabled: boolean,
  ) {}
}
