const NEWLINE = 0x0a;

/**
 * Cuts a byte stream into newline-terminated lines (a trailing '\r' dropped). Splitting bytes before decoding
 * is safe for UTF-8: 0x0a never occurs inside a multi-byte character.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private buffered = 0;
  private overflowed = false;

  /** `onOverflow` is called once, when a line grows past `maxLineBytes`; nothing is emitted after it. */
  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxLineBytes = Number.POSITIVE_INFINITY,
    private readonly onOverflow: () => void = () => undefined,
  ) {}

  push(chunk: Buffer): void {
    if (this.overflowed) return;
    let start = 0;
    for (let index = chunk.indexOf(NEWLINE); index >= 0; index = chunk.indexOf(NEWLINE, start)) {
      this.parts.push(chunk.subarray(start, index));
      this.flush();
      start = index + 1;
      if (this.overflowed) return;
    }
    if (start < chunk.length) {
      this.parts.push(chunk.subarray(start));
      this.buffered += chunk.length - start;
      if (this.buffered > this.maxLineBytes) this.overflow();
    }
  }

  /** The stream ended: a last line without its newline still counts. */
  end(): void {
    if (!this.overflowed && this.buffered > 0) this.flush();
  }

  private flush(): void {
    const bytes = this.parts.length === 1 ? (this.parts[0] as Buffer) : Buffer.concat(this.parts);
    this.parts = [];
    this.buffered = 0;
    if (bytes.length > this.maxLineBytes) {
      this.overflow();
      return;
    }
    const line = bytes.toString('utf8');
    this.onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
  }

  private overflow(): void {
    this.overflowed = true;
    this.parts = [];
    this.buffered = 0;
    this.onOverflow();
  }
}
