import WebSocket from 'ws';

type Frame = Record<string, unknown>;

/** A bare WebSocket JSON-RPC client for the gateway's own transport tests (independent of src/client). */
export class WsTestClient {
  readonly frames: Frame[] = [];
  closed: { code: number; reason: string } | undefined;
  private readonly listeners = new Set<() => void>();
  private readonly pending = new Map<string, (frame: Frame) => void>();
  private nextId = 1;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      this.frames.push(frame);
      const answered = typeof frame['id'] === 'string' && !('method' in frame) ? this.pending.get(frame['id']) : undefined;
      if (answered) {
        this.pending.delete(frame['id'] as string);
        answered(frame);
      }
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

  /** Sends a request and resolves with the whole response frame. */
  request(method: string, params: unknown = {}): Promise<Frame> {
    const id = `w${this.nextId++}`;
    const answered = new Promise<Frame>((resolve) => this.pending.set(id, resolve));
    this.socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return answered;
  }

  async call<T = Frame>(method: string, params: unknown = {}): Promise<T> {
    const frame = await this.request(method, params);
    if (frame['error']) throw new Error(`${method}: ${JSON.stringify(frame['error'])}`);
    return frame['result'] as T;
  }

  /** The `params` of every event received so far. */
  events(): Frame[] {
    return this.frames.filter((frame) => frame['method'] === 'event').map((frame) => frame['params'] as Frame);
  }

  sendRaw(text: string): void {
    this.socket.send(text);
  }

  close(): void {
    this.socket.close();
  }
}
