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

/** Every frame sent and received, already redacted. Rendered in the hive-style `>>` / `<<` line format. */
export class Transcript {
  readonly entries: TranscriptEntry[] = [];
  private readonly started = Date.now();

  constructor(
    private readonly redactor: Redactor,
    private readonly maxEntries = 20_000,
  ) {}

  record(dir: TranscriptDirection, conn: string, text: string): void {
    if (this.entries.length >= this.maxEntries) return;
    this.entries.push({ dir, conn, at: Date.now() - this.started, text: this.redactor.redact(text) });
  }

  get truncated(): boolean {
    return this.entries.length >= this.maxEntries;
  }

  render(): string {
    const lines = this.entries.map((e) => `${e.dir} [${e.conn} +${e.at}ms] ${e.text.replace(/\n$/, '')}`);
    if (this.truncated) lines.push(`-- transcript truncated at ${this.maxEntries} entries`);
    return lines.join('\n') + (lines.length ? '\n' : '');
  }
}
