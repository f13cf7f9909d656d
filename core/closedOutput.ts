type Write = NodeJS.WriteStream['write'];

/** A write to an output nobody reads any more: dropped, its callback (if any) called as a written chunk's would be. */
const dropped = ((_chunk: unknown, encodingOrCallback?: unknown, callback?: unknown): boolean => {
  const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
  if (typeof done === 'function') process.nextTick(done as () => void);
  return true;
}) as Write;

const guarded = new WeakSet<NodeJS.WriteStream>();

/**
 * A reader that stops early (`contract-gate run | head`, `--help | head`) closes the pipe: from then on what the
 * process writes to `stream` is dropped, and the command goes on to its own exit code. Ending the process there, with
 * 0, made a run piped into `head` pass a faulty gateway having judged nothing and written no report. Once per stream.
 */
export function dropWritesOnceClosed(stream: NodeJS.WriteStream): void {
  if (guarded.has(stream)) return;
  guarded.add(stream);
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    stream.write = dropped;
  });
}
