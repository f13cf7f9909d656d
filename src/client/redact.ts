/** Replaces secrets in text meant for transcripts, reports, logs and error messages. */
export const REDACTED = '***';

export class Redactor {
  private secrets: string[] = [];

  constructor(secrets: ReadonlyArray<string | undefined>) {
    this.add(secrets);
  }

  /** Secrets learnt later (a ticket fetched for one connection) are redacted from then on. */
  add(secrets: ReadonlyArray<string | undefined>): void {
    // Longest first so that a secret containing another is replaced whole.
    const known = [...this.secrets, ...secrets.filter((s): s is string => typeof s === 'string' && s.length > 0)];
    this.secrets = [...new Set(known)].sort((a, b) => b.length - a.length);
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) {
      out = out.split(secret).join(REDACTED);
      const encoded = encodeURIComponent(secret);
      if (encoded !== secret) out = out.split(encoded).join(REDACTED);
    }
    // Any token/ticket/internal query parameter or ticket-bearing subprotocol, even one we were not told about.
    return out.replace(/([?&](?:token|ticket|internal)=)[^&#\s"']+/gi, `$1${REDACTED}`).replace(/(hermes-gateway-ticket\.)[^,\s"']+/g, `$1${REDACTED}`);
  }

  /** Redacts a URL for display. */
  redactUrl(url: string): string {
    return this.redact(url);
  }
}
