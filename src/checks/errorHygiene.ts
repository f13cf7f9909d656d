import { isJsonObject, type Exchange, type JsonValue } from '../../core/index.js';
import { violation, type Violation } from './violation.js';

/**
 * `envelope.error-hygiene`: an error answer tells the client what went wrong, never how the server is built.
 * No member of the error object (message, data, or any other) may carry a stack trace, an absolute file-system
 * path, or a secret of the run (the token, values named with --secret-env).
 */
const STACK_TRACES: ReadonlyArray<[string, RegExp]> = [
  ['a JavaScript stack frame', /\bat (?:async )?[\w$.<>\[\] ]+ \((?:file:\/\/)?[^()\s]+:\d+:\d+\)|\bat (?:file:\/\/)?\/[^\s()]+:\d+:\d+/],
  ['a Python traceback', /Traceback \(most recent call last\)|File "[^"]+", line \d+/],
  ['a Java stack frame', /\bat [\w$]+(?:\.[\w$<>]+)+\([\w$]+\.(?:java|kt|scala):\d+\)/],
  ['a Go stack trace', /goroutine \d+ \[[\w ]+\]:|\.go:\d+ \+0x[0-9a-f]+/],
  ['a Ruby backtrace', /\S+\.rb:\d+:in [`']/],
  ['a .NET stack frame', /\bat [\w.]+\(.*\) in [^\s]+:line \d+/],
];

const ABSOLUTE_PATHS: ReadonlyArray<[string, RegExp]> = [
  ['an absolute path', /(?:^|[\s"'(=:,[])(\/(?:home|Users|usr|var|opt|srv|tmp|etc|root|app|work|mnt|private|workspace|builds?)\/[^\s"'(),:]+)/],
  ['an absolute path', /(?:^|[\s"'(=:,[])((?:\/[\w.@+-]+){2,}\.(?:js|mjs|cjs|ts|py|rb|go|java|php|cs|rs))\b/],
  ['an absolute path', /\b([A-Za-z]:\\(?:[^\\\s"']+\\)+[^\\\s"']*)/],
];

/** In the order findings name them: the first rule that matches a string is its finding. */
const LEAK_RULES = [...STACK_TRACES, ...ABSOLUTE_PATHS];

const EXCERPT = 120;

/** Every string inside a JSON value, with its dotted location. */
function strings(value: JsonValue, at: string, out: Array<[string, string]>): Array<[string, string]> {
  if (typeof value === 'string') out.push([at, value]);
  else if (Array.isArray(value)) value.forEach((item, index) => strings(item, `${at}.${index}`, out));
  else if (isJsonObject(value)) for (const [key, item] of Object.entries(value)) strings(item as JsonValue, `${at}.${key}`, out);
  return out;
}

function excerptAround(text: string, index: number, length: number, redact: (text: string) => string): string {
  const start = Math.max(0, index - 20);
  const raw = text.slice(start, Math.min(text.length, index + Math.max(length, 1) + 40));
  const clipped = raw.length > EXCERPT ? `${raw.slice(0, EXCERPT - 1)}…` : raw;
  return JSON.stringify(redact(`${start > 0 ? '…' : ''}${clipped}`));
}

export interface HygieneFinding {
  where: string;
  what: string;
  excerpt: string;
}

/** What an error object leaks; `secrets` are literal values of the run, redacted in the evidence. */
export function hygieneFindings(error: JsonValue, secrets: readonly string[]): HygieneFinding[] {
  const kept = secrets.filter((secret) => secret.length >= 4);
  const redact = (text: string): string => kept.reduce((acc, secret) => acc.split(secret).join('***'), text);
  const findings: HygieneFinding[] = [];
  for (const [where, text] of strings(error, 'error', [])) {
    const secret = kept.find((value) => text.includes(value));
    if (secret) {
      findings.push({ where, what: 'a secret of the run', excerpt: excerptAround(text, text.indexOf(secret), secret.length, redact) });
      continue;
    }
    for (const [what, pattern] of LEAK_RULES) {
      const match = pattern.exec(text);
      if (!match) continue;
      findings.push({ where, what, excerpt: excerptAround(text, match.index, match[0].length, redact) });
      break;
    }
  }
  return findings;
}

export function checkErrorHygiene(exchange: Exchange, secrets: readonly string[], subject = exchange.method): Violation[] {
  const response = exchange.response;
  if (!isJsonObject(response) || response['error'] === undefined || response['error'] === null) return [];
  const [first, ...more] = hygieneFindings(response['error'] as JsonValue, secrets);
  if (!first) return [];
  const extra = more.length > 0 ? ` (and ${more.length} more)` : '';
  return [violation('envelope.error-hygiene', `${subject}: the error answer carries ${first.what} in ${first.where}: ${first.excerpt}${extra}; error answers must not expose stack traces, file-system paths or secrets`, exchange.id)];
}
