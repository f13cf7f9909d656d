/** Longest frame text kept in transcripts, exchanges and stray lists; an answer of several MiB is cut to this. */
export const MAX_KEPT_TEXT = 128 * 1024;

/**
 * Cuts a long text to `max` characters plus a note of its full length. The kept part is copied, so the
 * cut text does not keep the original (possibly many MiB) alive.
 */
export function clipText(text: string, max = MAX_KEPT_TEXT): string {
  if (text.length <= max) return text;
  const kept = Buffer.from(text.slice(0, max), 'utf16le').toString('utf16le');
  return `${kept}… [cut: ${text.length} characters in all]`;
}
