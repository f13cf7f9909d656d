import WebSocket from 'ws';

export interface BareLoopResult {
  calls: number;
  elapsedMs: number;
}

/** Sends each request text on one raw `ws` connection and waits for the frame with its id; no checks, no records. */
export async function runBareLoop(url: string, requests: readonly string[]): Promise<BareLoopResult> {
  const socket = new WebSocket(url, { maxPayload: 256 * 1024 * 1024 });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let expected = '';
  let answered: (() => void) | undefined;
  socket.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as { id?: unknown };
    if (answered && 'id' in frame && JSON.stringify(frame.id) === expected) {
      const done = answered;
      answered = undefined;
      done();
    }
  });
  const ids = requests.map((text) => JSON.stringify((JSON.parse(text) as { id?: unknown }).id));
  const started = performance.now();
  for (const [index, text] of requests.entries()) {
    await new Promise<void>((resolve) => {
      expected = ids[index] ?? '';
      answered = resolve;
      socket.send(text);
    });
  }
  const elapsedMs = performance.now() - started;
  socket.close();
  return { calls: requests.length, elapsedMs };
}
