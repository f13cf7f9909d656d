import { closeSync, openSync, writeSync } from 'node:fs';

/** Where a streaming transcript writes its rendered lines as they arrive. */
export interface TranscriptSink {
  write(text: string): void;
  close(): void;
}

export interface FileSinkOptions {
  /**
   * Lines are gathered up to this many characters and written in one call (a method run records thousands of
   * frames: one write each cost more than the run's judging); 0, the default, writes every line at once.
   */
  readonly bufferChars?: number;
}

/**
 * Appends to a file with synchronous writes: lines land in order and nothing queues in memory beyond
 * `bufferChars` when the disk is slower than the target.
 */
export function fileTranscriptSink(path: string, options: FileSinkOptions = {}): TranscriptSink {
  let fd: number | undefined = openSync(path, 'a');
  const limit = options.bufferChars ?? 0;
  let pending: string[] = [];
  let pendingChars = 0;
  const flush = (): void => {
    if (fd === undefined || pending.length === 0) return;
    writeSync(fd, pending.join(''));
    pending = [];
    pendingChars = 0;
  };
  return {
    write(text) {
      if (fd === undefined) return;
      pending.push(text);
      pendingChars += text.length;
      if (pendingChars >= limit) flush();
    },
    close() {
      flush();
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}
