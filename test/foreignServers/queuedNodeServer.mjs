// A jayson JSON-RPC-over-WebSocket server that behaves like a single-threaded node: every request waits in one
// queue, in arrival order, and takes its method's time to answer (argv[2], a JSON object of method → ms; the
// defaults below). `node.proof` is the genuinely slow method; a client that keeps sending while it works makes every
// later request wait behind it. The contract is queuedNode.openrpc.json.
import jayson from 'jayson';
import { WebSocketServer } from 'ws';

const DELAYS = { 'node.version': 20, 'node.balance': 60, 'node.block': 80, 'node.echo': 40, 'node.proof': 1200, ...JSON.parse(process.argv[2] ?? '{}') };
const queue = [];
let busy = false;

function pump() {
  if (busy || queue.length === 0) return;
  busy = true;
  const { delay, work } = queue.shift();
  setTimeout(() => {
    busy = false;
    work();
    pump();
  }, delay);
}

const text = (value) => typeof value === 'string' && value.length <= 64;
const answers = {
  'node.version': () => 'queued-node/1.0',
  'node.balance': ({ address }) => (/^0x[0-9a-f]{40}$/.test(address ?? '') ? address.length * 7 : undefined),
  'node.block': ({ number }) => (Number.isInteger(number) && number >= 0 && number <= 1_000_000 ? { number, hash: `0x${number.toString(16).padStart(8, '0')}` } : undefined),
  'node.echo': ({ text: value }) => (text(value) ? value : undefined),
  'node.proof': ({ text: value }) => (text(value) ? value.length : undefined),
};

const server = new jayson.Server(
  Object.fromEntries(
    Object.entries(answers).map(([name, answer]) => [
      name,
      (params, callback) => {
        queue.push({
          delay: DELAYS[name],
          work: () => {
            const named = typeof params === 'object' && params !== null && !Array.isArray(params) ? params : name === 'node.version' && params === undefined ? {} : undefined;
            const result = named === undefined ? undefined : answer(named);
            if (result === undefined) callback(server.error(-32602, `invalid params for ${name}`));
            else callback(null, result);
          },
        });
        pump();
      },
    ]),
  ),
);
const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
wss.on('listening', () => process.stdout.write(`ws://127.0.0.1:${wss.address().port}/\n`));
server.websocket({ wss });
