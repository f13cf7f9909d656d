// A tiny JSON-RPC-over-WebSocket server that exits (as an uncaught exception would end it) when it receives one
// chosen frame: `node crashOnFrameServer.mjs '<frame text>'` prints its URL and serves `ping` until then.
import { WebSocketServer } from 'ws';

const fatal = process.argv[2];
if (fatal === undefined) throw new Error('usage: crashOnFrameServer.mjs <frame that makes it exit>');
const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
wss.on('listening', () => process.stdout.write(`ws://127.0.0.1:${wss.address().port}/\n`));
wss.on('connection', (socket) => {
  socket.on('message', (data) => {
    const text = data.toString();
    if (text === fatal) process.exit(70);
    const answer = (id, body) => socket.send(JSON.stringify({ jsonrpc: '2.0', id, ...body }));
    let request;
    try {
      request = JSON.parse(text);
    } catch {
      return answer(null, { error: { code: -32700, message: 'Parse error' } });
    }
    if (Array.isArray(request)) return answer(null, { error: { code: -32600, message: 'Batches are not supported' } });
    if (typeof request !== 'object' || request === null || request.jsonrpc !== '2.0' || typeof request.method !== 'string') {
      return answer(request?.id ?? null, { error: { code: -32600, message: 'Invalid Request' } });
    }
    if (!('id' in request)) return undefined;
    if (request.method !== 'ping') return answer(request.id, { error: { code: -32601, message: 'Method not found' } });
    const params = request.params ?? {};
    if (typeof params !== 'object' || Array.isArray(params) || Object.keys(params).length > 0) return answer(request.id, { error: { code: -32602, message: 'ping takes no params' } });
    return answer(request.id, { result: 'pong' });
  });
});
