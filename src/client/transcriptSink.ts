import { closeSync, openSync, writeSync } from 'node:fs';

/** Where a streaming transcript writes its rendered lines as they arrive. */
export interface TranscriptSink {
  write(text: string): void;
  close(): void;
}

/**
 * Appends to a file with synchronous writes: lines land in order and nothing queues in memory when the disk is
 * slower than the target.
 */
export function fileTranscriptSink(path: string): TranscriptSink {
  let fd: number | undefined = openSync(path, 'a');
  return {
    write(text) {
      if (fd !== undefined) writeSync(fd, text);
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}
