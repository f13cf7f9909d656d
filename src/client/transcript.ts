import { clipText } from './clipText.js';
import type { Redactor } from './redact.js';
import type { TranscriptSink } from './transcriptSink.js';

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

export interface TranscriptStreaming {
  /** Every entry is written here as it is recorded, in the render format (`maxEntries` and `maxChars` still bound it). */
  sink?: TranscriptSink;
  /** With a sink: entries kept in memory for render() and `entries` (default 0: none). */
  keepLast?: number;
  /** Time source of the `+Nms` stamps (default Date.now). */
  now?: () => number;
}

export function renderTranscriptLine(entry: TranscriptEntry): string {
  return `${entry.dir} [${entry.conn} +${entry.at}ms] ${entry.text.replace(/\n$/, '')}`;
}

/** A character repeated this often in a row is written shortened in a transcript file. */
export const LONG_RUN = 1024;
/** What is kept of such a run: its start, then a note of how many more there were. */
const RUN_KEPT = 64;
/** Probes this far apart: a run of LONG_RUN holds two of them, so a line is read at one place in STRIDE. */
const STRIDE = LONG_RUN / 2;
/** A count with its thousands grouped (65,472): `toLocaleString` would cost each process 6-12 ms of ICU set-up. */
const grouped = (count: number): string => String(count).replace(/\B(?=(\d{3})+$)/g, ',');

/**
 * `line` with every run of one character repeated LONG_RUN times or more cut to its first RUN_KEPT characters and a
 * note of the rest (`…[65,472 more "x"]`). The long-string cases send 64 KiB strings of one character, which made most
 * of a run's transcript files (43 of 64 MB on a document of 278 methods) and told a reader nothing their length does
 * not. Only what is rendered for a reader is shortened (the files, `render()`): the entries in memory, which
 * exchanges, verdicts and replays are made of, are whole. Long answers without such a run are read at one character
 * in STRIDE (a regular expression over every character cost 3% of a default run's CPU).
 */
export function shortenedRuns(line: string): string {
  if (line.length < LONG_RUN) return line;
  let written = '';
  let copied = 0;
  for (let probe = STRIDE; probe < line.length; probe += STRIDE) {
    const char = line.charCodeAt(probe);
    if (line.charCodeAt(probe - STRIDE) !== char || probe - STRIDE < copied) continue;
    const text = String.fromCharCode(char);
    // A run's extent is read a block at a time (a string comparison, far quicker than a character at a time), then to
    // the character.
    const block = text.repeat(STRIDE);
    let start = probe;
    while (start - STRIDE >= copied && line.slice(start - STRIDE, start) === block) start -= STRIDE;
    while (start > copied && line.charCodeAt(start - 1) === char) start--;
    let end = probe;
    while (line.slice(end, end + STRIDE) === block) end += STRIDE;
    while (end < line.length && line.charCodeAt(end) === char) end++;
    if (end - start < LONG_RUN) continue;
    written += `${line.slice(copied, start)}${text.repeat(RUN_KEPT)}…[${grouped(end - start - RUN_KEPT)} more ${JSON.stringify(text)}]`;
    copied = end;
    probe = end;
  }
  return copied === 0 ? line : written + line.slice(copied);
}

/**
 * Every frame sent and received, already redacted, received frames cut to 128 KiB. Rendered in the hive-style
 * `>>` / `<<` line format. With a sink the transcript streams: the sink gets every line (long runs of one character
 * shortened) and memory holds only the last `keepLast` entries, so a long run keeps no growing buffer.
 */
export class Transcript {
  /** The recorded entries; with a sink, only the last `keepLast`. */
  readonly entries: TranscriptEntry[] = [];
  private readonly now: () => number;
  private readonly started: number;
  private count = 0;
  private sent = 0;
  private chars = 0;

  constructor(
    private readonly redactor: Redactor,
    private readonly maxEntries = 20_000,
    private readonly maxChars = 64 * 1024 * 1024,
    private readonly streaming: TranscriptStreaming = {},
  ) {
    this.now = streaming.now ?? Date.now;
    this.started = this.now();
  }

  /** Secrets of a connection that writes here (a per-connection ticket) are redacted too. */
  addSecrets(secrets: ReadonlyArray<string>): void {
    this.redactor.add(secrets);
  }

  /**
   * `clipped`, when the caller has it, is `clipText(text)`: a received frame with nothing to redact then shares
   * the cut its exchange keeps instead of copying a second one.
   */
  record(dir: TranscriptDirection, conn: string, text: string, clipped?: string): void {
    if (this.truncated) return;
    // Only what the target sent can be huge; the harness's own requests are kept whole.
    const redacted = this.redactor.redact(text);
    const kept = dir !== '<<' ? redacted : redacted === text && clipped !== undefined ? clipped : clipText(redacted);
    this.chars += kept.length;
    this.count++;
    if (dir === '>>') this.sent++;
    const entry = { dir, conn, at: this.now() - this.started, text: kept };
    const { sink } = this.streaming;
    if (!sink) {
      this.entries.push(entry);
      return;
    }
    sink.write(`${shortenedRuns(renderTranscriptLine(entry))}\n`);
    this.entries.push(entry);
    if (this.entries.length > (this.streaming.keepLast ?? 0)) this.entries.shift();
    if (this.truncated) sink.write(`${this.truncationLine()}\n`);
  }

  /** Frames the harness sent, counted also when streaming keeps only the last entries. */
  get sentCount(): number {
    return this.sent;
  }

  get truncated(): boolean {
    return this.count >= this.maxEntries || this.chars >= this.maxChars;
  }

  render(): string {
    const lines = this.entries.map((entry) => shortenedRuns(renderTranscriptLine(entry)));
    if (this.truncated) lines.push(this.truncationLine());
    return lines.join('\n') + (lines.length ? '\n' : '');
  }

  /** Closes the sink, if any; the in-memory part stays readable. */
  close(): void {
    this.streaming.sink?.close();
  }

  private truncationLine(): string {
    return `-- transcript truncated at ${this.count} entries`;
  }
}
