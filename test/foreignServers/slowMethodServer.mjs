// A JSON-RPC-over-WebSocket server that works on one request at a time, in arrival order, like a single-threaded
// node: `slow.hash` takes SLOW_MS (argv[2], default 1500) to answer, every other method answers at once. A client
// that keeps sending while slow.hash calls are queued makes every later request wait behind them. With --stdio it
// speaks newline-delimited JSON-RPC on stdin and stdout instead, one client per process.
// Requests whose params are an array (by position, where every method takes them by name) get an error at once; with
// --drop-positional they get no answer at all (as the MCP SDK leaves a message that fails its own schema), with
// --late-positional MS they take MS to answer, in their turn like slow.hash; with --accept-positional the answer is a
// success (the by-position params taken for the named ones).
import { createInterface } from 'node:readline';
import { WebSocketServer } from 'ws';

const slowMs = Number(process.argv[2] ?? 1500);
const dropPositional = process.argv.includes('--drop-positional');
const latePositional = process.argv.indexOf('--late-positional');
const latePositionalMs = latePositional >= 0 ? Number(process.argv[latePositional + 1]) : undefined;
const acceptPositional = process.argv.includes('--accept-positional');
const queue = [];
let busy = false;

function pump() {
  if (busy || queue.length === 0) return;
  busy = true;
  const { reply, request } = queue.shift();
  const delay = request.method === 'slow.hash' ? slowMs : Array.isArray(request.params) && latePositionalMs !== undefined ? latePositionalMs : 0;
  setTimeout(() => {
    busy = false;
    if ('id' in request) reply({ jsonrpc: '2.0', id: request.id, ...answer(request) });
    pump();
  }, delay);
}

function answer({ method, params }) {
  if (acceptPositional && Array.isArray(params)) return { result: method === 'fast.echo' ? '' : 0 };
  const named = typeof params === 'object' && params !== null && !Array.isArray(params) ? params : undefined;
  const text = (value) => typeof value === 'string' && value.length <= 100;
  const small = (value) => Number.isInteger(value) && value >= -1000 && value <= 1000;
  if (method === 'fast.echo') {
    if (!named || !text(named.text)) return { error: { code: -32602, message: 'text must be a string of at most 100 characters' } };
    return { result: named.text };
  }
  if (method === 'fast.sum') {
    if (!named || !small(named.a) || !small(named.b)) return { error: { code: -32602, message: 'a and b must be integers in -1000..1000' } };
    return { result: named.a + named.b };
  }
  if (method === 'slow.hash') {
    if (!named || !text(named.text)) return { error: { code: -32602, message: 'text must be a string of at most 100 characters' } };
    return { result: named.text.length };
  }
  return { error: { code: -32601, message: 'Method not found' } };
}

/** One frame from a client: errors at once, requests into the queue. */
function receive(text, reply) {
  let request;
  try {
    request = JSON.parse(text);
  } catch {
    reply({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    return;
  }
  if (typeof request !== 'object' || request === null || Array.isArray(request) || request.jsonrpc !== '2.0' || typeof request.method !== 'string') {
    reply({ jsonrpc: '2.0', id: request?.id ?? null, error: { code: -32600, message: 'Invalid Request' } });
    return;
  }
  if (Array.isArray(request.params) && dropPositional) return;
  queue.push({ reply, request });
  pump();
}

if (process.argv.includes('--stdio')) {
  const reply = (frame) => process.stdout.write(`${JSON.stringify(frame)}\n`);
  createInterface({ input: process.stdin }).on('line', (line) => receive(line, reply));
} else {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  wss.on('listening', () => process.stdout.write(`ws://127.0.0.1:${wss.address().port}/\n`));
  wss.on('connection', (socket) => {
    const reply = (frame) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
    };
    socket.on('message', (data) => receive(data.toString(), reply));
  });
}
