/** The rules of gated mode a fault can switch off, one each (see gateway/faults/authFaults.ts). */
export type AuthRelaxation =
  /** An upgrade with no credential at all is admitted. */
  | 'admit-missing-credential'
  /** A ticket that was never minted is admitted. */
  | 'admit-unknown-ticket'
  /** A consumed ticket is admitted again (within its TTL). */
  | 'admit-reused-ticket'
  /** An expired ticket is admitted. */
  | 'admit-expired-ticket'
  /** The legacy `?token=` is admitted in gated mode. */
  | 'admit-legacy-token'
  /** A ticket protocol offered without `hermes-gateway-v1` is admitted. */
  | 'admit-ticket-protocol-alone'
  /** Two ticket protocols are admitted (the first is used). */
  | 'admit-two-ticket-protocols'
  /** The ticket-bearing protocol is selected instead of `hermes-gateway-v1`. */
  | 'select-ticket-protocol'
  /** A foreign Origin is admitted. */
  | 'admit-foreign-origin'
  /** A refused connection's frames are still dispatched (unanswered) before it is closed. */
  | 'dispatch-refused-frames';

/** The switched-off rules of one gateway: faults add theirs, gated admission asks. */
export class AuthRelaxations {
  private readonly active = new Map<AuthRelaxation, number>();

  relax(rule: AuthRelaxation): () => void {
    this.active.set(rule, (this.active.get(rule) ?? 0) + 1);
    return () => {
      const count = (this.active.get(rule) ?? 1) - 1;
      if (count > 0) this.active.set(rule, count);
      else this.active.delete(rule);
    };
  }

  has(rule: AuthRelaxation): boolean {
    return this.active.has(rule);
  }
}
