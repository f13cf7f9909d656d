/** Replaces secrets in text meant for transcripts, reports, logs and error messages. */
export const REDACTED = '***';

const CREDENTIAL_PARAMETER = /([?&](?:token|ticket|internal)=)[^&#\s"']+/gi;
/** A WebSocket subprotocol that carries a ticket (`<family>-ticket.<ticket>`): its value is a credential. */
const TICKET_SUBPROTOCOL = /([\w.-]*?-ticket\.)[^,\s"']+/g;
const TICKET_MARK = '-ticket.';
const CREDENTIAL_NAMES = ['token', 'ticket', 'internal'];

/**
 * False when CREDENTIAL_PARAMETER cannot match: no `=` has `?name` or `&name` right before it. Without the `u`
 * flag the pattern's `i` folds ASCII letters only, which lower-casing covers (it may say true where the pattern
 * then finds nothing). Fuzzed frames often hold an `=` somewhere; this costs a look at each, not a regex pass.
 */
function mayHoldCredentialParameter(text: string): boolean {
  for (let at = text.indexOf('='); at >= 0; at = text.indexOf('=', at + 1)) {
    for (const name of CREDENTIAL_NAMES) {
      const start = at - name.length;
      if (start < 1) continue;
      const before = text.charCodeAt(start - 1);
      if ((before === 0x3f || before === 0x26) && text.slice(start, at).toLowerCase() === name) return true;
    }
  }
  return false;
}

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
    if (mayHoldCredentialParameter(out)) out = out.replace(CREDENTIAL_PARAMETER, `$1${REDACTED}`);
    if (out.includes(TICKET_MARK)) out = out.replace(TICKET_SUBPROTOCOL, `$1${REDACTED}`);
    return out;
  }

  /** Redacts a URL for display. */
  redactUrl(url: string): string {
    return this.redact(url);
  }
}
