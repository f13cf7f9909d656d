import type { GatewayConnection } from '../core/gatewayConnection.js';
import type { GatewayCore } from '../core/gatewayCore.js';

export type Frame = Record<string, unknown>;

/** A JSON-RPC error answer seen by the in-memory client. */
export class MemoryRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(`[${code}] ${message}`);
    this.name = 'MemoryRpcError';
  }
}

interface Waiter {
  readonly predicate: (frame: Frame) => boolean;
  readonly resolve: (frame: Frame) => void;
}

/**
 * A client wired straight to the transport-free core (no socket): what the gateway's own unit tests drive.
 * Frames are serialised and parsed exactly as over WebSocket.
 */
export class MemoryClient {
  readonly frames: Frame[] = [];
  closed: { code: number; reason: string } | undefined;
  private readonly connection: GatewayConnection;
  private readonly waiters = new Set<Waiter>();
  private nextId = 1;

  constructor(private readonly core: GatewayCore) {
    this.connection = core.connect({
      kind: 'memory',
      send: (text) => this.deliver(JSON.parse(text) as Frame),
      close: (code, reason) => {
        this.closed = { code, reason };
      },
    });
  }

  /** Sends a raw text frame (or a value serialised as one) and waits until the core has handled it. */
  send(frame: string | unknown): Promise<void> {
    return this.core.receive(this.connection, typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Sends a request and resolves with the whole response frame. */
  async request(method: string, params?: unknown, id: string | number = `m${this.nextId++}`): Promise<Frame> {
    const answered = this.waitFor((frame) => !('method' in frame) && frame['id'] === id, 10_000);
    await this.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    return answered;
  }

  /** Sends a request and resolves with its result, or rejects with a {@link MemoryRpcError}. */
  async call<T = Record<string, unknown>>(method: string, params?: unknown): Promise<T> {
    const frame = await this.request(method, params);
    const error = frame['error'] as { code: number; message: string } | undefined;
    if (error) throw new MemoryRpcError(error.code, error.message);
    return frame['result'] as T;
  }

  /** The `params` of every event received so far, optionally for one session. */
  events(sessionId?: string): Frame[] {
    return this.frames
      .filter((frame) => frame['method'] === 'event')
      .map((frame) => frame['params'] as Frame)
      .filter((params) => sessionId === undefined || params['session_id'] === sessionId);
  }

  /** Resolves with the first frame (already received or future) that matches. */
  waitFor(predicate: (frame: Frame) => boolean, timeoutMs = 5_000): Promise<Frame> {
    const seen = this.frames.find(predicate);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        predicate,
        resolve: (frame) => {
          clearTimeout(timer);
          resolve(frame);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`no matching frame within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /** Resolves with the params of the first event of `type` (for `sessionId`) that matches. */
  async waitForEvent(type: string, sessionId?: string, match: (params: Frame) => boolean = () => true, timeoutMs?: number): Promise<Frame> {
    const frame = await this.waitFor((candidate) => {
      const params = candidate['params'] as Frame | undefined;
      return candidate['method'] === 'event' && params?.['type'] === type && (sessionId === undefined || params['session_id'] === sessionId) && match(params);
    }, timeoutMs);
    return frame['params'] as Frame;
  }

  /** Drops the connection as a transport would (close code and reason reach the core). */
  close(code = 1000, reason = ''): void {
    this.closed = { code, reason };
    this.core.disconnect(this.connection, code, reason);
  }

  private deliver(frame: Frame): void {
    this.frames.push(frame);
    for (const waiter of [...this.waiters]) {
      if (waiter.predicate(frame)) {
        this.waiters.delete(waiter);
        waiter.resolve(frame);
      }
    }
  }
}

export function connectInMemory(core: GatewayCore): MemoryClient {
  return new MemoryClient(core);
}
