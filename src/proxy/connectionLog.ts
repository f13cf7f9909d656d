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

/** Writes a record's header at `position`; returns where its body starts. */
function writeHeader(target: Buffer, position: number, kind: number, at: number, bodyBytes: number, wholeChars: number): number {
  let next = target.writeUInt8(kind, position);
  next = target.writeDoubleLE(at, next);
  next = target.writeUInt32LE(bodyBytes, next);
  return target.writeUInt32LE(wholeChars, next);
}

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
  /** The connection's file, once the buffer first spilled, and the bytes of whole records written to it. */
  private file: string | undefined;
  private fileBytes = 0;
  /** Why the log stopped short of its limits, if it did. */
  private lost: string | undefined;
  /** The records as last read: a report reads a connection's log for its transcript and for each replay file. */
  private read: StoredRecord[] | undefined;
  private entries = 0;
  private chars = 0;
  private clientFrames = 0;

  /** `newFile` names a file of the connection's own, asked for when the buffer first spills; `dispose()` removes it. */
  constructor(
    readonly openedAt: number,
    private readonly newFile: () => string,
    private readonly limits: ConnectionLogLimits = CONNECTION_LOG_LIMITS,
  ) {}

  /** Why the log stopped short of its limits (its file could not be written or read), if it did. */
  get lostReason(): string | undefined {
    return this.lost;
  }

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
    if (this.lost) lines.push(`-- transcript cut short: ${this.lost}`);
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
    this.fileBytes = 0;
    this.offset = 0;
    this.read = undefined;
  }

  private append(dir: TranscriptDirection, flags: number, at: number, body: Buffer, wholeChars: number): void {
    if (this.lost) return;
    this.read = undefined;
    const size = HEADER_BYTES + body.length;
    if (size > CHUNK) {
      // A record larger than the buffer goes to the file as it is, after what the buffer held.
      const header = Buffer.allocUnsafe(HEADER_BYTES);
      writeHeader(header, 0, DIRECTIONS.indexOf(dir) | flags, at, body.length, wholeChars);
      if (this.spill()) this.write([header, body]);
      return;
    }
    const chunk = this.room(size);
    if (!chunk) return;
    const start = writeHeader(chunk, this.offset, DIRECTIONS.indexOf(dir) | flags, at, body.length, wholeChars);
    body.copy(chunk, start);
    this.offset = start + body.length;
  }

  /** The buffer with room for `size` more bytes (at most CHUNK): grown, or emptied into the file; none if that failed. */
  private room(size: number): Buffer | undefined {
    if (this.offset + size <= this.chunk.length) return this.chunk;
    if (this.chunk.length < CHUNK && this.offset + size <= CHUNK) {
      const grown = Buffer.allocUnsafeSlow(Math.max(this.offset + size, Math.min(CHUNK, this.chunk.length * 2)));
      this.chunk.copy(grown, 0, 0, this.offset);
      this.chunk = grown;
      return grown;
    }
    if (!this.spill()) return undefined;
    if (size <= this.chunk.length) return this.chunk;
    this.chunk = Buffer.allocUnsafeSlow(Math.max(size, Math.min(CHUNK, this.chunk.length * 2)));
    return this.chunk;
  }

  /** Empties the buffer into the file: false when the file could not be written (the buffer then keeps what it held). */
  private spill(): boolean {
    if (this.offset === 0) return true;
    if (!this.write([this.chunk.subarray(0, this.offset)])) return false;
    this.offset = 0;
    return true;
  }

  /**
   * Appends whole records to the file. A failure (a full disk, a folder removed from under the proxy) ends the log
   * where it was, and says so in the transcript, rather than the judging of the connection's frames: they go on.
   */
  private write(parts: readonly Buffer[]): boolean {
    try {
      this.file ??= this.newFile();
      for (const part of parts) appendFileSync(this.file, part);
      this.fileBytes += parts.reduce((sum, part) => sum + part.length, 0);
      return true;
    } catch (error) {
      this.lost = `its file could not be written (${error instanceof Error ? error.message : String(error)}): later frames were judged, not kept`;
      return false;
    }
  }

  private records(): StoredRecord[] {
    if (this.read) return this.read;
    let spilled: Buffer | undefined;
    try {
      // Only the records written whole: a write that failed half-way may have left a part of one.
      spilled = this.file ? readFileSync(this.file).subarray(0, this.fileBytes) : undefined;
    } catch (error) {
      this.lost ??= `its file could not be read (${error instanceof Error ? error.message : String(error)}): the frames kept in it are missing`;
    }
    const records: StoredRecord[] = [];
    for (const bytes of [spilled, this.chunk.subarray(0, this.offset)]) {
      if (!bytes) continue;
      let at = 0;
      while (at < bytes.length) {
        const kind = bytes.readUInt8(at);
        const bodyBytes = bytes.readUInt32LE(at + 9);
        const start = at + HEADER_BYTES;
        records.push({ dir: DIRECTIONS[kind & 3] as TranscriptDirection, flags: kind & ~3, at: bytes.readDoubleLE(at + 1), text: bytes.toString('utf8', start, start + bodyBytes), wholeChars: bytes.readUInt32LE(at + 13) });
        at = start + bodyBytes;
      }
    }
    this.read = records;
    return records;
  }
}
