/** Replaces secrets in text meant for transcripts, reports, logs and error messages. */
export const REDACTED = '***';

const CREDENTIAL_PARAMETER = /([?&](?:token|ticket|internal)=)[^&#\s"']+/gi;
const TICKET_SUBPROTOCOL = /(hermes-gateway-ticket\.)[^,\s"']+/g;
const TICKET_PREFIX = 'hermes-gateway-ticket.';

export class Redactor {
  /** Each secret and its URL-encoded form when that differs, longest secret first. */
  private forms: string[][] = [];
  private secrets: string[] = [];

  constructor(secrets: ReadonlyArray<string | undefined>) {
    this.add(secrets);
  }

  /** Secrets learnt later (a ticket fetched for one connection) are redacted from then on. */
  add(secrets: ReadonlyArray<string | undefined>): void {
    // Longest first so that a secret containing another is replaced whole.
    const known = [...this.secrets, ...secrets.filter((s): s is string => typeof s === 'string' && s.length > 0)];
    this.secrets = [...new Set(known)].sort((a, b) => b.length - a.length);
    this.forms = this.secrets.map((secret) => {
      const encoded = encodeURIComponent(secret);
      return encoded === secret ? [secret] : [secret, encoded];
    });
  }

  redact(text: string): string {
    let out = text;
    for (const forms of this.forms) for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
    // Any token/ticket/internal query parameter or ticket-bearing subprotocol, even one we were not told about.
    // Frames are mostly long JSON without either marker: a scan for the marker is much cheaper than the pattern.
    if (out.includes('=')) out = out.replace(CREDENTIAL_PARAMETER, `$1${REDACTED}`);
    if (out.includes(TICKET_PREFIX)) out = out.replace(TICKET_SUBPROTOCOL, `$1${REDACTED}`);
    return out;
  }

  /** Redacts a URL for display. */
  redactUrl(url: string): string {
    return this.redact(url);
  }
}
