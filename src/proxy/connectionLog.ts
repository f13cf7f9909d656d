import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { clipText, MAX_KEPT_TEXT } from '../client/clipText.js';
import type { Redactor } from '../client/redact.js';
import { renderTranscriptLine, shortenedRuns, type TranscriptDirection, type TranscriptEntry } from '../client/transcript.js';

/** A frame the client sent, kept for the replay files of its connection. */
export interface ClientFrame {
  text: string;
  at: number;
}

export interface ConnectionLogLimits {
  /** Transcript entries kept; later ones are counted out (the transcript says where it stopped). */
  readonly maxEntries: number;
  /** Characters of transcript text kept (frames as clipped for the transcript). */
  readonly maxChars: number;
  /** Client frames kept whole for the replay files, the first ones of the connection. */
  readonly maxClientFrames: number;
}

export const CONNECTION_LOG_LIMITS: ConnectionLogLimits = { maxEntries: 20_000, maxChars: 64 * 1024 * 1024, maxClientFrames: 5_000 };

const DIRECTIONS: readonly TranscriptDirection[] = ['>>', '<<', '--'];
/** Flags of a record beside its direction: in the transcript, and a client frame kept whole for the replay. */
const IN_TRANSCRIPT = 4;
const FOR_REPLAY = 8;
/** flags u8, at f64, stored bytes u32, characters of the whole text when only its start is stored (else 0) u32. */
const HEADER_BYTES = 1 + 8 + 4 + 4;
/** A connection's buffer starts small (most connections are short) and doubles up to CHUNK, then spills to its file. */
const FIRST_CHUNK = 4 * 1024;
const CHUNK = 64 * 1024;

interface StoredRecord {
  readonly dir: TranscriptDirection;
  readonly flags: number;
  readonly at: number;
  readonly text: string;
  /** Characters of the whole frame, when `text` is only its first MAX_KEPT_TEXT. */
  readonly wholeChars: number;
}

/**
 * What the proxy keeps of one connection: its transcript (the first `maxEntries` entries) and the client's first
 * frames whole, for the replay files. Kept as UTF-8 records in one buffer of at most 64 KiB that spills to the
 * connection's file when full, not as a string and an object or two per frame on the JavaScript heap: the proxy
 * relays tens of thousands of frames a second, every frame kept on the heap was copied by each young-generation
 * collection until it was promoted, and those pauses (2-4 ms, several a second) made the proxy's added latency at p99;
 * kept in memory outside the heap, they made V8 run a full collection several times a second instead. The process's
 * memory stays flat however long the proxy runs. Redaction and clipping happen when the transcript is read (only for
 * connections with findings), with every secret known by then.
 */
export class ConnectionLog {
  private chunk: Buffer = Buffer.allocUnsafeSlow(FIRST_CHUNK);
  private offset = 0;
  /** The connection's file, once the buffer first spilled. */
  private file: string | undefined;
  private entries = 0;
  private chars = 0;
  private clientFrames = 0;

  /** `newFile` names a file of the connection's own, asked for when the buffer first spills; `dispose()` removes it. */
  constructor(
    readonly openedAt: number,
    private readonly newFile: () => string,
    private readonly limits: ConnectionLogLimits = CONNECTION_LOG_LIMITS,
  ) {}

  /** The transcript stopped taking entries. */
  get truncated(): boolean {
    return this.entries >= this.limits.maxEntries || this.chars >= this.limits.maxChars;
  }

  /** A connection event (open, close, a binary frame not judged): a transcript line. */
  note(at: number, text: string): void {
    if (this.truncated) return;
    this.entries++;
    this.chars += text.length;
    this.append('--', IN_TRANSCRIPT, at, Buffer.from(text, 'utf8'), 0);
  }

  /** A relayed text frame: `text` is `data` decoded. */
  frame(dir: '>>' | '<<', at: number, data: Buffer, text: string): void {
    const forReplay = dir === '>>' && this.clientFrames < this.limits.maxClientFrames;
    const inTranscript = !this.truncated;
    if (!forReplay && !inTranscript) return;
    if (forReplay) this.clientFrames++;
    const clipped = text.length > MAX_KEPT_TEXT;
    if (inTranscript) {
      this.entries++;
      this.chars += clipped ? MAX_KEPT_TEXT : text.length;
    }
    const flags = (inTranscript ? IN_TRANSCRIPT : 0) | (forReplay ? FOR_REPLAY : 0);
    // Only a frame the replay re-sends is kept whole; the transcript shows the start of a long one.
    if (clipped && !forReplay) this.append(dir, flags, at, Buffer.from(text.slice(0, MAX_KEPT_TEXT), 'utf8'), text.length);
    else this.append(dir, flags, at, data, 0);
  }

  /** The transcript's entries, redacted and clipped as written, stamped in milliseconds since the connection opened. */
  transcript(conn: string, redactor: Redactor): TranscriptEntry[] {
    const entries: TranscriptEntry[] = [];
    for (const record of this.records()) {
      if ((record.flags & IN_TRANSCRIPT) === 0) continue;
      const redacted = redactor.redact(record.text);
      const text = record.wholeChars > 0 ? `${redacted}… [cut: ${record.wholeChars} characters in all]` : clipText(redacted);
      entries.push({ dir: record.dir, conn, at: record.at - this.openedAt, text });
    }
    return entries;
  }

  /** The transcript file's text: one line per entry, long runs of a character shortened, the truncation said. */
  render(conn: string, redactor: Redactor): string {
    const lines = this.transcript(conn, redactor).map((entry) => shortenedRuns(renderTranscriptLine(entry)));
    if (this.truncated) lines.push(`-- transcript truncated at ${this.entries} entries`);
    return lines.join('\n') + (lines.length ? '\n' : '');
  }

  /** The client's first frames, whole and unredacted, with their times (the clock `frame` was given). */
  replayFrames(): ClientFrame[] {
    const frames: ClientFrame[] = [];
    for (const record of this.records()) if ((record.flags & FOR_REPLAY) !== 0) frames.push({ text: record.text, at: record.at });
    return frames;
  }

  /** Removes the connection's file and forgets what the buffer held: for a connection whose log nobody will read. */
  dispose(): void {
    if (this.file) rmSync(this.file, { force: true });
    this.file = undefined;
    this.offset = 0;
  }

  private append(dir: TranscriptDirection, flags: number, at: number, body: Buffer, wholeChars: number): void {
    const header = this.room(HEADER_BYTES + body.length);
    let position = header.writeUInt8(DIRECTIONS.indexOf(dir) | flags, this.offset);
    position = header.writeDoubleLE(at, position);
    position = header.writeUInt32LE(body.length, position);
    position = header.writeUInt32LE(wholeChars, position);
    if (header === this.chunk) {
      body.copy(this.chunk, position);
      this.offset = position + body.length;
    } else {
      // A record larger than the buffer goes to the file as it is, after what the buffer held.
      const file = this.spillFile();
      appendFileSync(file, header);
      appendFileSync(file, body);
    }
  }

  /** Where the next record's header goes: the buffer, grown or spilled to make room, or a header of its own for a record too large for it. */
  private room(size: number): Buffer {
    if (this.offset + size <= this.chunk.length) return this.chunk;
    if (this.chunk.length < CHUNK && this.offset + size <= CHUNK) {
      const grown = Buffer.allocUnsafeSlow(Math.max(this.offset + size, Math.min(CHUNK, this.chunk.length * 2)));
      this.chunk.copy(grown, 0, 0, this.offset);
      this.chunk = grown;
      return grown;
    }
    this.spill();
    return size <= this.chunk.length ? this.chunk : Buffer.allocUnsafe(HEADER_BYTES);
  }

  private spill(): void {
    if (this.offset === 0) return;
    appendFileSync(this.spillFile(), this.chunk.subarray(0, this.offset));
    this.offset = 0;
  }

  private spillFile(): string {
    this.file ??= this.newFile();
    return this.file;
  }

  private *records(): Generator<StoredRecord> {
    const spilled = this.file ? readFileSync(this.file) : undefined;
    for (const bytes of [spilled, this.chunk.subarray(0, this.offset)]) {
      if (!bytes) continue;
      let at = 0;
      while (at < bytes.length) {
        const kind = bytes.readUInt8(at);
        const bodyBytes = bytes.readUInt32LE(at + 9);
        const start = at + HEADER_BYTES;
        yield { dir: DIRECTIONS[kind & 3] as TranscriptDirection, flags: kind & ~3, at: bytes.readDoubleLE(at + 1), text: bytes.toString('utf8', start, start + bodyBytes), wholeChars: bytes.readUInt32LE(at + 13) };
        at = start + bodyBytes;
      }
    }
  }
}
