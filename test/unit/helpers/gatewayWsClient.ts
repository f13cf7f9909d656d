import WebSocket from 'ws';

type Frame = Record<string, unknown>;

/** A bare WebSocket JSON-RPC client for the gateway's own transport tests (independent of src/client). */
export class WsTestClient {
  readonly frames: Frame[] = [];
  closed: { code: number; reason: string } | undefined;
  private readonly listeners = new Set<() => void>();
  private nextId = 1;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.frames.push(JSON.parse(data.toString()) as Frame);
      for (const listener of [...this.listeners]) listener();
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      for (const listener of [...this.listeners]) listener();
    });
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<WsTestClient> {
    const socket = new WebSocket(url, { headers });
    const client = new WsTestClient(socket);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(client));
      socket.once('error', reject);
    });
  }

  waitFor(predicate: (frame: Frame) => boolean, timeoutMs = 5_000): Promise<Frame> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.frames.find(predicate);
        if (!found) return;
        this.listeners.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`no matching frame within ${timeoutMs} ms`));
      }, timeoutMs);
      this.listeners.add(check);
      check();
    });
  }

  waitClosed(timeoutMs = 5_000): Promise<{ code: number; reason: string }> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!this.closed) return;
        this.listeners.delete(check);
        clearTimeout(timer);
        resolve(this.closed);
      };
      const timer = setTimeout(() => reject(new Error('socket not closed')), timeoutMs);
      this.listeners.add(check);
      check();
    });
  }

  async call<T = Frame>(method: string, params: unknown = {}): Promise<T> {
    const id = `w${this.nextId++}`;
    this.socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    const frame = await this.waitFor((candidate) => candidate['id'] === id);
    if (frame['error']) throw new Error(`${method}: ${JSON.stringify(frame['error'])}`);
    return frame['result'] as T;
  }

  sendRaw(text: string): void {
    this.socket.send(text);
  }

  close(): void {
    this.socket.close();
  }
}
