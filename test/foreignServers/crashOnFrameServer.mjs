// A tiny JSON-RPC server that exits (as an uncaught exception would end it) when it receives one chosen frame:
// `node crashOnFrameServer.mjs '<frame text>'` prints its WebSocket URL, `node crashOnFrameServer.mjs --http '<frame
// text>'` its HTTP URL (one POST per frame, its body the answer), and serves `ping` until then.
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';

const http = process.argv[2] === '--http';
const fatal = process.argv[http ? 3 : 2];
if (fatal === undefined) throw new Error('usage: crashOnFrameServer.mjs [--http] <frame that makes it exit>');

/** The answer to one frame, as text; undefined for a notification. */
function answerTo(text) {
  const answer = (id, body) => JSON.stringify({ jsonrpc: '2.0', id, ...body });
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
}

if (http) {
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (text === fatal) process.exit(70);
      const answer = answerTo(text);
      response.writeHead(answer === undefined ? 204 : 200, { 'content-type': 'application/json' }).end(answer ?? '');
    });
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}/\n`));
} else {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  wss.on('listening', () => process.stdout.write(`ws://127.0.0.1:${wss.address().port}/\n`));
  wss.on('connection', (socket) => {
    socket.on('message', (data) => {
      const text = data.toString();
      if (text === fatal) process.exit(70);
      const answer = answerTo(text);
      if (answer !== undefined) socket.send(answer);
    });
  });
}
