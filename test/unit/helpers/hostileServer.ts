import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/** How the server misbehaves; `well-behaved` is the control every other mode is compared with. */
export const HOSTILE_MODES = [
  'well-behaved',
  'non-json',
  'unknown-id',
  'id-other-type',
  'silent',
  'late-answer',
  'close-1011',
  'destroy',
  'flood',
  'huge-frame',
  'double-answer',
] as const;

export type HostileMode = (typeof HOSTILE_MODES)[number];

export interface HostileServerOptions {
  /** Event notifications per second in `flood` mode (sent in bursts every 10 ms). Default 20 000. */
  floodPerSecond?: number;
  /** Size of the result string in `huge-frame` mode. Default 8 MiB. */
  hugeBytes?: number;
  /** Delay before each answer in `flood` mode, so that a short run still receives a long flood. Default 0. */
  answerDelayMs?: number;
  /** Delay before each answer in `late-answer` mode (longer than the client's timeout). Default 400. */
  lateMs?: number;
}

export interface HostileServer {
  /** ws://127.0.0.1:PORT/api/ws */
  readonly url: string;
  readonly mode: HostileMode;
  /** Connections accepted so far. */
  readonly connections: number;
  /** Requests received so far. */
  readonly requests: number;
  /** Event notifications sent so far (flood mode). */
  readonly eventsSent: number;
  close(): Promise<void>;
}

/** One method over the Hermes params layout: a closed object {a, b} of integers, answered with their sum. */
export const HOSTILE_CONTRACT = {
  openrpc: '1.2.6',
  info: { title: 'Hostile probe', version: '1.0.0' },
  methods: [
    {
      name: 'math.add',
      params: [
        {
          name: 'params',
          required: true,
          schema: {
            type: 'object',
            properties: { a: { type: 'integer', minimum: -1000, maximum: 1000 }, b: { type: 'integer', minimum: -1000, maximum: 1000 } },
            required: ['a', 'b'],
            additionalProperties: false,
          },
        },
      ],
      result: { name: 'sum', schema: { type: 'integer' } },
    },
  ],
};

export function writeHostileContract(dir: string): string {
  const path = join(dir, 'hostile-probe.openrpc.json');
  writeFileSync(path, JSON.stringify(HOSTILE_CONTRACT, null, 2));
  return path;
}

type Frame = Record<string, unknown>;

/** What a correct server answers: the sum, -32602 naming the offending key, or -32601. */
function correctAnswer(request: Frame): Frame {
  const base = { jsonrpc: '2.0', id: request['id'] ?? null };
  if (request['method'] !== 'math.add') return { ...base, error: { code: -32601, message: `method not found: ${String(request['method'])}` } };
  const params = request['params'];
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return { ...base, error: { code: -32602, message: 'invalid params: expected an object' } };
  const extra = Object.keys(params).find((key) => key !== 'a' && key !== 'b');
  if (extra !== undefined) return { ...base, error: { code: -32602, message: `invalid params: ${extra}: unknown key` } };
  const { a, b } = params as Frame;
  for (const [key, value] of [['a', a], ['b', b]] as const) {
    if (!Number.isInteger(value) || Math.abs(value as number) > 1000) return { ...base, error: { code: -32602, message: `invalid params: ${key}: expected an integer in -1000..1000` } };
  }
  return { ...base, result: (a as number) + (b as number) };
}

/** The same id as another JSON type: "7" → 7, 7 → "7", "r7" → ["r7"] (all equal as text). */
function otherType(id: unknown): unknown {
  if (typeof id === 'number') return String(id);
  if (typeof id === 'string' && /^-?\d+$/.test(id)) return Number(id);
  return [id];
}

/** A `ws` server on an ephemeral loopback port that answers JSON-RPC requests in one hostile way. */
export async function startHostileServer(mode: HostileMode, options: HostileServerOptions = {}): Promise<HostileServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: 64 * 1024 * 1024 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const timers = new Set<NodeJS.Timeout>();
  const hugeBytes = options.hugeBytes ?? 8 * 1024 * 1024;
  const floodPerSecond = options.floodPerSecond ?? 20_000;
  let connections = 0;
  let requests = 0;
  let eventsSent = 0;
  let unknownIds = 0;
  const heldAnswers = new WeakMap<WebSocket, Frame>();

  const startFlood = (socket: WebSocket): void => {
    const burst = Math.max(1, Math.round(floodPerSecond / 100));
    const timer = setInterval(() => {
      if (socket.readyState !== socket.OPEN) return;
      // Keep the flood from piling up in this process when the client reads slower than it is fed.
      if (socket.bufferedAmount > 4 * 1024 * 1024) return;
      for (let i = 0; i < burst; i++) {
        const n = ++eventsSent;
        const frame = n % 4 === 0
          ? { jsonrpc: '2.0', method: 'progress', params: { n } }
          : { jsonrpc: '2.0', method: 'event', params: { type: 'flood.tick', session_id: 'flood', seq: n, payload: { n, note: 'x'.repeat(64) } } };
        socket.send(JSON.stringify(frame));
      }
    }, 10);
    timers.add(timer);
    socket.once('close', () => {
      clearInterval(timer);
      timers.delete(timer);
    });
  };

  const onRequest = (socket: WebSocket, request: Frame): void => {
    const answer = correctAnswer(request);
    const send = (frame: unknown): void => socket.send(JSON.stringify(frame));
    switch (mode) {
      case 'well-behaved':
        return send(answer);
      case 'flood':
      case 'late-answer': {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (socket.readyState === socket.OPEN) send(answer);
        }, mode === 'flood' ? (options.answerDelayMs ?? 0) : (options.lateMs ?? 400));
        timers.add(timer);
        return;
      }
      case 'non-json':
        return socket.send('<html><body><h1>502 Bad Gateway</h1></body></html>');
      case 'unknown-id':
        return send({ ...answer, id: `no-such-request-${++unknownIds}` });
      case 'id-other-type':
        return send({ ...answer, id: otherType(request['id']) });
      case 'silent':
        return;
      case 'close-1011':
        return socket.close(1011, 'internal error');
      case 'destroy':
        return socket.terminate();
      case 'huge-frame':
        return send({ ...answer, ...('result' in answer ? { result: 'x'.repeat(hugeBytes) } : {}) });
      case 'double-answer': {
        // The second copy is held back and sent just before the next answer, while the next request is open.
        const held = heldAnswers.get(socket);
        if (held) send(held);
        send(answer);
        heldAnswers.set(socket, answer);
        return;
      }
    }
  };

  wss.on('connection', (socket) => {
    connections++;
    socket.on('error', () => undefined);
    if (mode === 'flood') startFlood(socket);
    socket.on('message', (data) => {
      let request: unknown;
      try {
        request = JSON.parse(data.toString());
      } catch {
        return;
      }
      if (typeof request !== 'object' || request === null || Array.isArray(request) || !('id' in request)) return;
      requests++;
      onRequest(socket, request as Frame);
    });
  });

  const { port } = wss.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/api/ws`,
    mode,
    get connections() {
      return connections;
    },
    get requests() {
      return requests;
    },
    get eventsSent() {
      return eventsSent;
    },
    close: async () => {
      for (const timer of timers) clearInterval(timer);
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
