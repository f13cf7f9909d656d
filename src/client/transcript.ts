import { clipText } from './clipText.js';
import type { Redactor } from './redact.js';

export type TranscriptDirection = '>>' | '<<' | '--';

export interface TranscriptEntry {
  /** `>>` sent, `<<` received, `--` connection event (open, close, error). */
  dir: TranscriptDirection;
  /** Milliseconds since the transcript started. */
  at: number;
  /** Connection label, so that multi-connection scenarios stay readable. */
  conn: string;
  text: string;
}

/**
 * Every frame sent and received, already redacted, received frames cut to 128 KiB. Rendered in the hive-style
 * `>>` / `<<` line format.
 */
export class Transcript {
  readonly entries: TranscriptEntry[] = [];
  private readonly started = Date.now();
  private chars = 0;

  constructor(
    private readonly redactor: Redactor,
    private readonly maxEntries = 20_000,
    private readonly maxChars = 64 * 1024 * 1024,
  ) {}

  record(dir: TranscriptDirection, conn: string, text: string): void {
    if (this.truncated) return;
    // Only what the target sent can be huge; the harness's own requests are kept whole.
    const redacted = this.redactor.redact(text);
    const kept = dir === '<<' ? clipText(redacted) : redacted;
    this.chars += kept.length;
    this.entries.push({ dir, conn, at: Date.now() - this.started, text: kept });
  }

  get truncated(): boolean {
    return this.entries.length >= this.maxEntries || this.chars >= this.maxChars;
  }

  render(): string {
    const lines = this.entries.map((e) => `${e.dir} [${e.conn} +${e.at}ms] ${e.text.replace(/\n$/, '')}`);
    if (this.truncated) lines.push(`-- transcript truncated at ${this.entries.length} entries`);
    return lines.join('\n') + (lines.length ? '\n' : '');
  }
}
